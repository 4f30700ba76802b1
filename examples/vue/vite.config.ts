import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

// The one line wallet-modal needs in Vue: the tag is a custom element, left to the browser.
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag: string) => tag === 'wallet-modal' } } })],
});

import { createApp } from 'vue';
import 'wallet-modal';
import App from './App.vue';

createApp(App).mount('#app');

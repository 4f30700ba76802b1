import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack from 'webpack';

// Nothing else for wallet-modal: webpack 5 emits each .wasm the package names with a literal
// `new URL('./x.wasm', import.meta.url)` as an asset, and splits its lazy `import()`s into chunks.
export default {
  mode: 'production',
  entry: './src/main.js',
  output: {
    path: path.resolve(import.meta.dirname, 'dist'),
    filename: '[name].[contenthash].js',
    // The package's .wasm files under their own (already content-hashed) names, not webpack's bare hash.
    assetModuleFilename: '[name][ext]',
    clean: true,
  },
  plugins: [
    new HtmlWebpackPlugin({ template: './src/index.html' }),
    // The modal's API URL at build time, from the same variable as the Vite examples.
    new webpack.DefinePlugin({ 'process.env.VITE_WM_API_URL': JSON.stringify(process.env.VITE_WM_API_URL ?? '') }),
  ],
};

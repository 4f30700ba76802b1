import { mount } from 'svelte';
import 'wallet-modal';
import App from './App.svelte';

mount(App, { target: document.getElementById('app') });

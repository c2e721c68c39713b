import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Multi-page build: each page is an HTML entry; the gateway serves dist/ (assets under /assets).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    // No inlined assets: the pages' CSP has no data: scripts and everything is served from 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        sign: resolve(import.meta.dirname, 'sign.html'),
        dashboard: resolve(import.meta.dirname, 'dashboard.html'),
        verify: resolve(import.meta.dirname, 'verify.html'),
      },
      // What the pages share (src/shared: styles, the path helper) is one chunk, named for what it is.
      output: { manualChunks: (id) => (id.includes('/src/shared/') ? 'shared' : undefined) },
    },
  },
});

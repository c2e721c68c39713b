export * from './merkle.js';
export * from './note.js';
export * from './bundle.js';

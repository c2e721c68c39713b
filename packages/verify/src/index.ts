export * from './merkle.js';
export * from './note.js';
export * from './bundle.js';
export * from './witness.js';
export * from './state.js';
export * from './keys.js';
export * from './commitments.js';

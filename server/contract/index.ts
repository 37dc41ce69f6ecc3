export * from './envelope.js';
export * from './calls.js';
export * from './permissions.js';
export * from './gateway.js';
export * from './dashboard.js';
export * from './resource.js';
export * from './validation.js';
export * from './resources/index.js';

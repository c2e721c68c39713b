// The @signet/proto package: the generated code (src/, by scripts/gen-proto.mjs) and the event
// contract registry written next to it (events/registry.ts).
export * from './src/index.js';
export * from './events/registry.js';
export * from './events/call-graph.js';
export * from './events/webhook-event-types.js';

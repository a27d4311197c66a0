/**
 * The one declaration of how vidbot is wired: which function serves which route, which queue feeds which
 * function, which table, queue and bucket each may touch. The CDK stack (infra/stack.ts) and the local
 * runtime (infra/local) both read it, so the deployed service and the one on a laptop cannot drift.
 * Its parts, by concern: the resources (tables, queues, alarms, the bucket's CORS), the functions, the REST API,
 * and the environment a function gets; the declarations' shapes are in ./wiring/declarations.ts.
 */
export * from './wiring/api.ts';
export * from './wiring/declarations.ts';
export * from './wiring/environment.ts';
export * from './wiring/functions.ts';
export * from './wiring/resources.ts';

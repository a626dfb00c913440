export * from './tenants.js';
export * from './steps.js';
export * from './admissions.js';
export * from './audit.js';

export * from './constants';
export * from './envelope';
export * from './errors';
export * from './idno';
export * from './system';
export * from './documents';
export * from './user';
export * from './zod-locale';

import { setChineseZodMessages } from '@zhikaoyun/shared';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/database';
import type { KeyRing } from './lib/crypto-suite';
import { loggerOptions } from './lib/logger';
import authPlugin from './plugins/auth';
import captchaPlugin from './plugins/captcha';
import cipherPlugin from './plugins/cipher';
import dbPlugin from './plugins/db';
import drainPlugin from './plugins/drain';
import envelopePlugin from './plugins/envelope';
import loadSheddingPlugin, { type LoadSheddingOptions } from './plugins/load-shedding';
import metricsPlugin from './plugins/metrics';
import openapiPlugin from './plugins/openapi';
import personalCachePlugin, { type PersonalCacheOptions } from './plugins/personal-cache';
import publicCachePlugin from './plugins/public-cache';
import rateLimitPlugin from './plugins/rate-limit';
import redisPlugin from './plugins/redis';
import securityPlugin from './plugins/security';
import servicesPlugin from './plugins/services';
import tenancyPlugin from './plugins/tenancy';
import webPlugin from './plugins/web';
import accountsRoutes from './modules/access/accounts/routes';
import attachmentsRoutes from './modules/content/attachments/routes';
import documentsAdminRoutes from './modules/content/documents/admin-routes';
import examsAdminRoutes from './modules/content/exams/admin-routes';
import noticesAdminRoutes from './modules/content/notices/admin-routes';
import positionsAdminRoutes from './modules/content/positions/admin-routes';
import staffAdminRoutes from './modules/access/staff/admin-routes';
import securityRoutes from './modules/access/security/routes';
import auditRoutes from './modules/platform/audit/routes';
import archiveRoutes from './modules/platform/archive/routes';
import { startRetentionJob } from './modules/platform/retention/daily';
import systemAdminRoutes from './modules/platform/system/admin-routes';
import personalDataRoutes from './modules/access/accounts/personal-data-routes';
import { appealsAdminRoutes, appealsCandidateRoutes } from './modules/registration/appeals/routes';
import applicationsRoutes from './modules/registration/applications/routes';
import captchaRoutes from './modules/access/captcha/routes';
import documentsRoutes from './modules/content/documents/routes';
import examsRoutes from './modules/content/exams/routes';
import healthRoutes from './modules/platform/health/routes';
import noticesRoutes from './modules/content/notices/routes';
import notificationsAdminRoutes from './modules/messages/notifications/admin-routes';
import notificationsRoutes from './modules/messages/notifications/routes';
import reviewRoutes from './modules/registration/review/routes';
import staffRoutes from './modules/access/staff/routes';
import totpRoutes from './modules/access/totp/routes';
import positionsRoutes from './modules/content/positions/routes';
import systemRoutes from './modules/platform/system/routes';
import arrangementAdminRoutes, { siteCityRoutes } from './modules/arrangement/arrangement/routes';
import closeoutAdminRoutes from './modules/confirmation/closeout/routes';
import { ticketsAdminRoutes, ticketsRoutes } from './modules/arrangement/tickets/routes';
import { calendarRoutes } from './modules/messages/reminders/routes';
import { scoresAdminRoutes, scoresRoutes } from './modules/scores/scores/routes';
import { stagesAdminRoutes, stagesRoutes } from './modules/scores/stages/routes';
import paymentsAdminRoutes from './modules/confirmation/payments/admin-routes';
import type { SandboxKeys } from './modules/confirmation/payments/providers/sandbox';
import { paymentsCandidateRoutes, paymentsNotifyRoutes, sandboxRoutes } from './modules/confirmation/payments/routes';
import { startConfirmationSweeper } from './modules/confirmation/payments/sweeper';
import { sharedSandboxKeys } from './modules/confirmation/payments/sandbox-keys';
import { waiversAdminRoutes, waiversCandidateRoutes } from './modules/confirmation/waivers/routes';
import platformRoutes from './modules/platform/offices/routes';
import platformTotpRoutes from './modules/platform/offices/totp-routes';
import { identityRoutes, identitySandboxRoutes } from './modules/access/identity/routes';

export interface AppDeps {
  db: Db;
  /** The key for personal data at rest (see lib/data-key.ts). */
  dataKey: Buffer;
  /** Where log lines go; the default is stdout. Tests pass a stream to read them back. */
  logStream?: NodeJS.WritableStream;
  /** Sees every route as it is registered (tests enumerate the routes and their auth config). */
  onRoute?: (route: RouteOptions) => void;
  /** Admission limits (tests lower them to show shedding without a real flood). */
  loadShedding?: LoadSheddingOptions;
  /** How long a candidate's kept answer may live (tests lengthen it to show what ends it). */
  personalCache?: PersonalCacheOptions;
  /** The exports' worker script (applications, ranking); the server bundle's neighbour dist/export-worker.js unless given (tests give the built one). */
  exportWorker?: URL | string;
  /** The heavy worker's script (sheets, arrangement, ranking); dist/heavy-worker.js beside the server unless given (tests give the built one). */
  heavyWorker?: URL | string;
  /** False: no daily retention purge (the purge command builds an app of its own). */
  retentionJob?: boolean;
  /** The sandbox payment provider's keys (lib: modules/confirmation/payments/sandbox-keys.ts); made afresh when absent. */
  sandboxKeys?: SandboxKeys;
}

/** Request bodies larger than this are refused with 413 (uploads set their own limit). */
export const BODY_LIMIT_BYTES = 256 * 1024;

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  setChineseZodMessages();
  const options: FastifyServerOptions = {
    logger: loggerOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
  };
  const app = Fastify(options).withTypeProvider<ZodTypeProvider>();
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(envelopePlugin);
  // Before shedding: once the process is stopping, a request is refused before anything counts it.
  await app.register(drainPlugin);
  await app.register(loadSheddingPlugin, {
    ...(config.ops.shedForTests ? { forced: { paths: config.ops.shedForTests, retryAfterSeconds: 1 } } : {}),
    ...deps.loadShedding,
  });
  await app.register(dbPlugin, { db: deps.db });
  await app.register(metricsPlugin, { token: config.ops.metricsToken, port: config.ops.metricsPort });
  await app.register(securityPlugin);
  await app.register(redisPlugin, { redisUrl: config.redisUrl, enabled: config.rateLimits });
  await app.register(rateLimitPlugin, { enabled: config.rateLimits });
  const keys: KeyRing = { suite: config.cryptoSuite, current: deps.dataKey, previous: config.previousDataKeys };
  await app.register(cipherPlugin, { keys });
  // Every repository and service, built once; tenancy, auth and captcha below take theirs from it.
  const wantsSandbox = config.payments.provider === 'sandbox' || config.env !== 'production';
  await app.register(servicesPlugin, {
    sms: config.sms,
    payments: { config: config.payments, sandboxKeys: deps.sandboxKeys ?? (wantsSandbox ? await sharedSandboxKeys() : undefined) },
    production: config.env === 'production',
    captchaFixed: config.captchaFixed,
    exports: {
      script: deps.exportWorker ?? new URL('./export-worker.js', import.meta.url),
      database: config.database,
      keys,
      timeoutMs: config.exportTaskTimeoutMs,
    },
    heavyWorker: deps.heavyWorker ?? new URL('./heavy-worker.js', import.meta.url),
    heavyTimeoutMs: config.heavyTaskTimeoutMs,
    secondFactor: config.secondFactor,
    staffPolicy: config.staffPolicy,
    reminders: config.reminders,
    archiveDir: config.archiveDir,
    accountInactiveYears: config.accountInactiveYears,
    identity: { ...config.identity, publicUrl: config.payments.publicUrl },
  });
  await app.register(tenancyPlugin, { defaultOfficeCode: config.defaultOfficeCode, trustProxy: config.trustProxy });
  await app.register(authPlugin);
  await app.register(captchaPlugin);
  await app.register(openapiPlugin);
  await app.register(publicCachePlugin);
  await app.register(personalCachePlugin, deps.personalCache ?? {});

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(systemRoutes, { prefix: '/api' });
  await app.register(captchaRoutes, { prefix: '/api' });
  await app.register(documentsRoutes, { prefix: '/api' });
  await app.register(accountsRoutes, { prefix: '/api' });
  await app.register(identityRoutes, { prefix: '/api' });
  await app.register(identitySandboxRoutes, { prefix: '/api' });
  await app.register(personalDataRoutes, { prefix: '/api' });
  await app.register(appealsCandidateRoutes, { prefix: '/api' });
  await app.register(appealsAdminRoutes, { prefix: '/api/admin' });
  await app.register(examsRoutes, { prefix: '/api' });
  await app.register(positionsRoutes, { prefix: '/api' });
  await app.register(applicationsRoutes, { prefix: '/api' });
  await app.register(ticketsRoutes, { prefix: '/api' });
  await app.register(calendarRoutes, { prefix: '/api' });
  await app.register(siteCityRoutes, { prefix: '/api' });
  await app.register(scoresRoutes, { prefix: '/api' });
  await app.register(stagesRoutes, { prefix: '/api' });
  await app.register(noticesRoutes, { prefix: '/api' });
  await app.register(notificationsRoutes, { prefix: '/api' });
  await app.register(staffRoutes, { prefix: '/api/admin' });
  await app.register(totpRoutes, { prefix: '/api/admin' });
  await app.register(reviewRoutes, { prefix: '/api/admin' });
  await app.register(auditRoutes, { prefix: '/api/admin' });
  await app.register(archiveRoutes, { prefix: '/api/admin' });
  await app.register(attachmentsRoutes, { prefix: '/api' });
  await app.register(systemAdminRoutes, { prefix: '/api/admin' });
  await app.register(examsAdminRoutes, { prefix: '/api/admin' });
  await app.register(documentsAdminRoutes, { prefix: '/api/admin' });
  await app.register(positionsAdminRoutes, { prefix: '/api/admin' });
  await app.register(noticesAdminRoutes, { prefix: '/api/admin' });
  await app.register(staffAdminRoutes, { prefix: '/api/admin' });
  await app.register(securityRoutes, { prefix: '/api/admin' });
  await app.register(notificationsAdminRoutes, { prefix: '/api/admin' });
  await app.register(paymentsCandidateRoutes, { prefix: '/api' });
  await app.register(waiversCandidateRoutes, { prefix: '/api' });
  await app.register(paymentsNotifyRoutes, { prefix: '/api' });
  await app.register(sandboxRoutes, { prefix: '/api' });
  await app.register(paymentsAdminRoutes, { prefix: '/api/admin' });
  await app.register(waiversAdminRoutes, { prefix: '/api/admin' });
  await app.register(closeoutAdminRoutes, { prefix: '/api/admin' });
  await app.register(arrangementAdminRoutes, { prefix: '/api/admin' });
  await app.register(ticketsAdminRoutes, { prefix: '/api/admin' });
  await app.register(scoresAdminRoutes, { prefix: '/api/admin' });
  await app.register(stagesAdminRoutes, { prefix: '/api/admin' });
  await app.register(platformRoutes, { prefix: '/api/platform' });
  await app.register(platformTotpRoutes, { prefix: '/api/platform' });
  startConfirmationSweeper(app, config.payments.sweepMs);
  // Retention's purge, once a day across all processes (issue 36); the commands run it themselves.
  startRetentionJob(app, deps.retentionJob === false ? 0 : config.retentionCheckMs);

  await app.register(webPlugin, { root: config.webDist });
  return app;
}

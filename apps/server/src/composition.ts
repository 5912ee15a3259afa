import type { FastifyInstance } from 'fastify';
import { createAccountsRepository } from './modules/accounts/repository';
import { createAccountsService } from './modules/accounts/service';
import { createPersonalDataService } from './modules/accounts/personal-data';
import { createPersonalDataRepository } from './modules/accounts/personal-data-repository';
import { createReauth } from './modules/accounts/reauth';
import { createAppealsRepository } from './modules/appeals/repository';
import { createAppealsService } from './modules/appeals/service';
import { createLifecycle } from './modules/applications/lifecycle';
import { numberOnSubmit } from './modules/applications/numbering';
import { createApplicationsRepository } from './modules/applications/repository';
import { createApplicationsService } from './modules/applications/service';
import { createOfficeLock } from './lib/office-lock';
import { createAttachmentsRepository } from './modules/attachments/repository';
import { createAttachmentsService } from './modules/attachments/service';
import { createAuditRepository } from './modules/audit/repository';
import { createAuditService } from './modules/audit/service';
import { createCaptchaRepository } from './modules/captcha/repository';
import { createCaptchaService } from './modules/captcha/service';
import type { ConsoleDeps } from './modules/audit/console-deps';
import { createDocumentsAdminService } from './modules/documents/admin-service';
import { createDocumentsRepository } from './modules/documents/repository';
import { createDocumentsService } from './modules/documents/service';
import { createExamsAdminService } from './modules/exams/admin-service';
import { createExamLookup } from './modules/exams/lookup';
import { createPositionLookup } from './modules/positions/lookup';
import { createExamsRepository } from './modules/exams/repository';
import { createExamsService } from './modules/exams/service';
import { createHealthRepository } from './modules/health/repository';
import { createNoticesAdminService } from './modules/notices/admin-service';
import { createNoticesRepository } from './modules/notices/repository';
import { createNoticesService } from './modules/notices/service';
import { createPositionsAdminService } from './modules/positions/admin-service';
import { createPositionsRepository } from './modules/positions/repository';
import { createPositionsService } from './modules/positions/service';
import { createReviewRepository } from './modules/review/repository';
import { createReviewService } from './modules/review/service';
import { createSessionsRepository } from './modules/sessions/repository';
import { createSessionsService } from './modules/sessions/service';
import { createStaffAdminService } from './modules/staff/admin-service';
import { createStaffRepository } from './modules/staff/repository';
import { createStaffService } from './modules/staff/service';
import { createSystemAdminService } from './modules/system/admin-service';
import { createSystemRepository } from './modules/system/repository';
import { createSystemService } from './modules/system/service';
import { createNotificationsRepository } from './modules/notifications/repository';
import { createNotificationsService } from './modules/notifications/service';
import { createSmsCodes } from './modules/sms/codes';
import { createSmsCodesRepository } from './modules/sms/codes-repository';
import { createProvider } from './modules/sms/providers';
import { createSmsRepository } from './modules/sms/repository';
import { createSmsWorker } from './modules/sms/worker';
import type { Database, SmsConfig } from './config';
import { createWorkerStreams } from './lib/worker-stream';
import { createHeavyTasks } from './heavy-tasks';
import type { ExportJob } from './export-worker';
import { createArrangementRepository } from './modules/arrangement/repository';
import { createArrangementService } from './modules/arrangement/service';
import { createCloseoutRepository } from './modules/closeout/repository';
import { createTicketsRepository } from './modules/tickets/repository';
import { createTicketsService } from './modules/tickets/service';
import { createScoresRepository } from './modules/scores/repository';
import { createScoresService } from './modules/scores/service';
import { createStagesRepository } from './modules/stages/repository';
import { createStagesService } from './modules/stages/service';
import { createCloseoutService } from './modules/closeout/service';
import { createPaymentsAdminService } from './modules/payments/admin-service';
import { composeProviders, type PaymentsOptions } from './modules/payments/compose';
import { createPaymentsRepository } from './modules/payments/repository';
import { createSandboxRepository } from './modules/payments/sandbox-repository';
import { createPaymentsService } from './modules/payments/service';
import { createWaiversRepository } from './modules/waivers/repository';
import { createWaiversService } from './modules/waivers/service';

export interface CompositionOptions {
  sms: SmsConfig;
  payments: PaymentsOptions;
  production: boolean;
  /** The one answer every captcha accepts (tests and benches only; see config.ts). */
  captchaFixed: string | undefined;
  /** What the exports' worker threads need to read the rows on a connection of their own (src/export-worker.ts). */
  exports: { script: URL | string; database: Database; dataKey: Buffer; previousKeys: readonly Buffer[] };
  /** The heavy worker's script (sheets, arrangement, ranking; decision 014). */
  heavyWorker: URL | string;
  /** Wall-clock limit of one heavy task (config HEAVY_TASK_TIMEOUT_SECONDS). */
  heavyTimeoutMs: number;
}

/** An export's worker heap: rows pass through it a batch at a time, so a small heap is plenty and keeps the process's memory flat. */
const EXPORT_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * The composition root: every repository and service of one app instance, built once when the
 * app starts and handed to the routes and plugins through `app.services`. Nothing here is built
 * per request, and each collaborator (the audit log above all) exists once, so a rule changed in
 * one place is changed for every caller.
 *
 * It is built before the plugins that use its parts (tenancy, sessions, captcha); what it needs of
 * what is registered later (the public cache, `app.inject`) it reads only when called.
 */
export function composeServices(app: FastifyInstance, options: CompositionOptions) {
  const { db, cipher, counters } = app;

  const repos = {
    accounts: createAccountsRepository(db),
    appeals: createAppealsRepository(db),
    applications: createApplicationsRepository(db),
    attachments: createAttachmentsRepository(db),
    audit: createAuditRepository(db),
    captcha: createCaptchaRepository(db),
    documents: createDocumentsRepository(db),
    exams: createExamsRepository(db),
    health: createHealthRepository(db),
    notices: createNoticesRepository(db),
    notifications: createNotificationsRepository(db),
    sms: createSmsRepository(db),
    smsCodes: createSmsCodesRepository(db),
    personalData: createPersonalDataRepository(db),
    positions: createPositionsRepository(db),
    review: createReviewRepository(db),
    sessions: createSessionsRepository(db),
    staff: createStaffRepository(db),
    system: createSystemRepository(db),
    payments: createPaymentsRepository(db),
    sandbox: createSandboxRepository(db),
    waivers: createWaiversRepository(db),
    closeout: createCloseoutRepository(db),
    arrangement: createArrangementRepository(db),
    tickets: createTicketsRepository(db),
    scores: createScoresRepository(db),
    stages: createStagesRepository(db),
  };

  const audit = createAuditService(repos.audit);
  // One lookup of an exam for every service: the same row, the same answer when it is missing.
  const examLookup = createExamLookup(db);
  const positionLookup = createPositionLookup(db);
  // At most two exports (of either kind) at once, each on its own thread; a third waits its turn.
  const exportWorkers = createWorkerStreams(options.exports.script, {
    resourceLimits: EXPORT_WORKER_LIMITS,
    concurrency: 2,
    onWorkerError: (err) => app.log.error({ err }, 'export worker failed'),
  });
  const { database } = options.exports;
  // At most two heavy tasks at once (the machine's cores), each on a worker of the pool.
  const heavy = createHeavyTasks(options.heavyWorker, {
    size: 2,
    timeoutMs: options.heavyTimeoutMs,
    workerData: { database: options.exports.database },
    onWorkerError: (err, task) => app.log.error({ err, task }, 'heavy worker stopped'),
  });
  // Before the server stops taking requests and waits for those in flight: a task still running
  // (a stuck sheet) then answers its request at once instead of holding the shutdown.
  app.addHook('preClose', () => heavy.close());
  const sessions = createSessionsService(repos.sessions);
  const captcha = createCaptchaService(repos.captcha, { fixedCode: options.captchaFixed });
  const console: ConsoleDeps = { db, audit, changed: (officeId) => app.publicCache.invalidate(officeId) };
  const exams = createExamsService(repos.exams);
  // Delivers the SMS outbox; started by the server entry (tests drain it themselves).
  const smsWorker = createSmsWorker({
    repo: repos.sms,
    provider: () => createProvider(options.sms, repos.sms, app.log),
    log: app.log,
    leaseMs: options.sms.leaseMs,
  });
  // After the queueing transaction committed (a moment later), not before: the worker would find nothing.
  const queued = () => setTimeout(() => smsWorker.wake(), 20).unref();
  const notifications = createNotificationsService({ repo: repos.notifications, sms: repos.sms, audit, queued, exams: examLookup });
  const smsCodes = createSmsCodes({
    codes: repos.smsCodes,
    sms: repos.sms,
    cipher,
    captcha,
    required: async (officeId) => (await notifications.settings(officeId)).phoneVerification,
    phoneKnown: (officeId, mobile) => repos.sms.phoneKnown(officeId, mobile),
    queued,
  });
  // The one writer of application statuses, shared by the candidate's and the console's calls.
  const lifecycle = createLifecycle({
    repo: repos.applications,
    audit,
    // Every step it writes also runs these hooks in its transaction: the candidate's message first.
    // The 报名号 last: its per-exam counter row is then held only for the commit.
    onTransition: [notifications.onTransition, numberOnSubmit],
    // Applicant counts are data: the candidate site's position list shows a change on its next read.
    onApplicantsChanged: (officeId) => app.publicCache.expireLive(officeId),
  });
  const applications = createApplicationsService({
    repo: repos.applications,
    lifecycle,
    exams,
    positions: repos.positions,
    findCandidate: (officeId, id) => repos.accounts.findById(officeId, id),
  });
  const { changed } = console;
  const examsAdmin = createExamsAdminService({ repo: repos.exams, audit, changed, notifications });
  const attachments = createAttachmentsService({ repo: repos.attachments, audit });
  // Any Excel import of an office: one at a time (also across processes when Redis is configured).
  const importLock = createOfficeLock('import', '另一个导入正在进行，请稍后再试', app.redis, (err) =>
    app.log.warn({ err: { message: err.message } }, 'import lock: redis unavailable, holding the lock in this process only'),
  );
  const reauth = createReauth({ counters, sessions });

  // Confirmation: fees, waivers, close-out. Every status step still goes through the lifecycle.
  const { providers: paymentProviders, provider, sandbox } = composeProviders(app, options.payments, options.production, repos.sandbox);
  const payments = createPaymentsService({
    repo: repos.payments,
    applications: repos.applications,
    lifecycle,
    exams,
    provider,
    providers: paymentProviders,
    publicUrl: options.payments.config.publicUrl ?? '',
    latestWaiver: (officeId, applicationId) => repos.waivers.latest(officeId, applicationId),
    candidateName: async (officeId, id) => (await repos.accounts.findById(officeId, id))?.name ?? '',
    log: app.log,
  });
  const scores = createScoresService({
    repo: repos.scores,
    audit,
    exams: examLookup,
    notifications,
    importLock,
    changed,
    version: (officeId) => app.publicCache.version(officeId),
    heavy,
    exportFile: (job, failed) => exportWorkers.open({ kind: 'ranking', ...job, database } satisfies ExportJob, failed),
  });
  const closeout = createCloseoutService({
    positions: positionLookup,
    repo: repos.closeout,
    applications: repos.applications,
    lifecycle,
    exams,
    examsAdmin,
    payments,
    audit,
    notifications,
    commit: (work) => repos.payments.commit(work),
    changed,
    findCandidate: (officeId, id) => repos.accounts.findById(officeId, id),
  });

  return {
    repos,
    audit,
    sessions,
    captcha,
    lifecycle,
    accounts: createAccountsService({
      repo: repos.accounts,
      cipher,
      captcha,
      sessions,
      counters,
      reauth,
      audit,
      phoneCodes: smsCodes,
      photoLock: (officeId, candidateId) => applications.photoLock(officeId, candidateId),
    }),
    personalData: createPersonalDataService({ repo: repos.personalData, cipher, reauth, sessions, audit }),
    appeals: createAppealsService({ repo: repos.appeals, cipher, sessions, audit }),
    applications,
    attachments,
    importLock,
    documents: createDocumentsService(repos.documents, examLookup),
    documentsAdmin: createDocumentsAdminService({ repo: repos.documents, exams: examsAdmin, attachments, audit, changed }),
    exams,
    examsAdmin,
    notices: createNoticesService(repos.notices),
    notifications,
    smsCodes,
    smsWorker,
    noticesAdmin: createNoticesAdminService({ repo: repos.notices, attachments, audit, changed, exams: examLookup }),
    positions: createPositionsService(repos.positions, exams),
    positionsAdmin: createPositionsAdminService({ repo: repos.positions, audit, changed, exams: examsAdmin, importLock, heavy }),
    review: createReviewService({
      repo: repos.review,
      findPhoto: (officeId, photoId) => repos.accounts.findPhoto(officeId, photoId),
      lifecycle,
      applicationsRepo: repos.applications,
      cipher,
      audit,
      exportFile: (job, failed) =>
        exportWorkers.open(
          {
            kind: 'applications',
            ...job,
            database,
            dataKey: options.exports.dataKey,
            previousKeys: [...options.exports.previousKeys],
          } satisfies ExportJob,
          failed,
        ),
    }),
    staff: createStaffService({ repo: repos.staff, captcha, sessions, counters, audit }),
    staffAdmin: createStaffAdminService({ repo: repos.staff, audit, sessions }),
    system: createSystemService(repos.system),
    systemAdmin: createSystemAdminService({ repo: repos.system, attachments, audit, changed }),
    payments,
    paymentProviders,
    sandbox,
    paymentsAdmin: createPaymentsAdminService({ repo: repos.payments, payments, lifecycle, audit, providers: paymentProviders }),
    waivers: createWaiversService({
      repo: repos.waivers,
      payments: repos.payments,
      applications: repos.applications,
      lifecycle,
      exams,
      audit,
      notifications,
    }),
    closeout,
    arrangement: createArrangementService({ repo: repos.arrangement, audit, exams: examLookup, heavy }),
    scores,
    stages: createStagesService({ repo: repos.stages, scores, audit, exams: examLookup, importLock, changed, notifications, heavy }),
    tickets: createTicketsService({
      repo: repos.tickets,
      cipher,
      audit,
      exams: examLookup,
      notifications,
      findPhoto: (officeId, id) => repos.accounts.findPhoto(officeId, id),
      findRoom: (officeId, id) => repos.arrangement.room(officeId, id),
    }),
  };
}

export type Services = ReturnType<typeof composeServices>;

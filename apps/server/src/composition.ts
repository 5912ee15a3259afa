import type { FastifyInstance } from 'fastify';
import { createAccountsService } from './modules/access/accounts/service';
import { createPersonalDataService } from './modules/access/accounts/personal-data';
import { createReauth } from './modules/access/accounts/reauth';
import { createAppealsService } from './modules/registration/appeals/service';
import { createLifecycle } from './modules/registration/applications/lifecycle';
import { numberOnSubmit } from './modules/registration/applications/numbering';
import { createApplicationsService } from './modules/registration/applications/service';
import { createOfficeLock } from './lib/office-lock';
import { createAttachmentsService } from './modules/content/attachments/service';
import { createAuditService } from './modules/platform/audit/service';
import { createCaptchaService } from './modules/access/captcha/service';
import type { ConsoleDeps } from './modules/access/console-deps';
import { createDocumentsAdminService } from './modules/content/documents/admin-service';
import { createDocumentsService } from './modules/content/documents/service';
import { createExamsAdminService } from './modules/content/exams/admin-service';
import { createExamLookup } from './modules/content/exams/lookup';
import { createPositionLookup } from './modules/content/positions/lookup';
import { createExamsService } from './modules/content/exams/service';
import { createNoticesAdminService } from './modules/content/notices/admin-service';
import { createNoticesService } from './modules/content/notices/service';
import { createPositionsAdminService } from './modules/content/positions/admin-service';
import { createPositionsService } from './modules/content/positions/service';
import { createReviewService } from './modules/registration/review/service';
import { createSessionsService } from './modules/access/sessions/service';
import { createSecurityService } from './modules/access/security/service';
import { createStaffAdminService } from './modules/access/staff/admin-service';
import { createStaffService } from './modules/access/staff/service';
import { createSecondFactorService } from './modules/access/totp/service';
import { createPasswordPolicy } from './modules/access/staff/password-policy';
import { createStaffSignInSessions } from './modules/access/staff/sign-in-sessions';
import { createSystemAdminService } from './modules/platform/system/admin-service';
import { createSystemService } from './modules/platform/system/service';
import { createNotificationsService } from './modules/messages/notifications/service';
import { createRemindersService } from './modules/messages/reminders/service';
import { createCalendarService } from './modules/messages/reminders/calendar';
import { createSmsCodes } from './modules/messages/sms/codes';
import { createProvider } from './modules/messages/sms/providers';
import { createSmsWorker } from './modules/messages/sms/worker';
import { deriveKey } from './lib/crypto-suite';
import { createCaptchaVoice } from './modules/access/captcha/audio';
import { createWorkerStreams } from './lib/worker-stream';
import { nowIso } from './lib/clock';
import { createHeavyTasks } from './heavy-tasks';
import { createPlatformService } from './modules/platform/offices/service';
import { createIdentityProvider, type IdentityProvider } from './modules/access/identity/providers';
import { createIdentityService } from './modules/access/identity/service';
import { ErrorCode, examConfigSchema, photoBackgroundRequiredText } from '@zhikaoyun/shared';
import { AppError } from './lib/app-error';
import { storedBackground } from './modules/access/accounts/photo';
import { matchesBackground } from './modules/access/accounts/photo-rules';
import { parseJsonColumn } from './lib/json';
import type { ExportJob } from './export-worker';
import type { CompositionOptions } from './composition-options';
import { composeLaterStages } from './composition-later-stages';
import { createRepositories } from './composition-repositories';

/** An export's worker heap: rows pass through it a batch at a time, so a small heap is plenty and keeps the process's memory flat. */
const EXPORT_WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * The composition root: every repository and service of one app instance, built once when the
 * app starts and handed to the routes and plugins through `app.services`. Nothing here is built
 * per request, and each collaborator (the audit log above all) exists once, so a rule changed in
 * one place is changed for every caller.
 *
 * It is built before the plugins that use its parts (tenancy, sessions, captcha); what it needs of
 * what is registered later (the public cache, `app.inject`) it reads only when called. *
 * Beside it: what it is told (composition-options.ts), the repositories (composition-repositories.ts)
 * and the services after registration (composition-later-stages.ts).
 */
export function composeServices(app: FastifyInstance, options: CompositionOptions) {
  const { db, cipher, counters } = app;

  const repos = createRepositories(app);

  const audit = createAuditService(repos.audit);
  // One lookup of an exam for every service: the same row, the same answer when it is missing.
  const examLookup = createExamLookup(db);
  const positionLookup = createPositionLookup(db);
  // At most two exports (of any kind) at once, each on its own thread; a third waits its turn.
  // One that runs past its limit is ended, so a stuck one cannot hold a place for ever.
  const exportWorkers = createWorkerStreams(options.exports.script, {
    resourceLimits: EXPORT_WORKER_LIMITS,
    concurrency: 2,
    timeoutMs: options.exports.timeoutMs,
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
  // A stop's drain (SIGTERM) ends them as it starts; a plain close (tests, commands) here.
  app.drain.onStart(() => heavy.close());
  app.addHook('preClose', () => heavy.close());
  const sessions = createSessionsService(repos.sessions, { staffIdleMs: options.staffPolicy.idleMs });
  const passwordPolicy = createPasswordPolicy(options.staffPolicy);
  // Captcha codes: a MAC of the captcha's id, spoken by the committed digit clips (decision 035).
  const { suite, current } = options.exports.keys;
  const captchaOptions = {
    fixedCode: options.captchaFixed,
    codeKey: { suite, key: deriveKey(suite, current, 'zhikaoyun captcha code v1', 32) },
    voice: createCaptchaVoice(),
  };
  const captcha = createCaptchaService(repos.captcha, captchaOptions);
  const console: ConsoleDeps = { db, audit, changed: (officeId) => app.publicCache.invalidate(officeId) };
  const exams = createExamsService(repos.exams, examLookup);
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
    exams: examLookup,
    audit,
    // Every step it writes also runs these hooks in its transaction: the candidate's message first.
    // The 报名号 last: its per-exam counter row is then held only for the commit.
    onTransition: [notifications.onTransition, numberOnSubmit],
    // Applicant counts are data: the candidate site's position list shows a change on its next read.
    onApplicantsChanged: (officeId) => app.publicCache.expireLive(officeId),
  });
  // Identity checks (issue 33): the provider is made on first use, so a real one's SDK loads only when configured.
  let identityProvider: Promise<IdentityProvider> | null = null;
  const identity = createIdentityService({
    repo: repos.identity,
    provider: () => (identityProvider ??= createIdentityProvider(options.identity)),
    timeoutMs: options.identity.timeoutMs,
    cipher,
    audit,
    findCandidate: (officeId, id) => repos.accounts.findById(officeId, id),
    findExam: async (officeId, examId) => {
      const row = await examLookup.require(officeId, examId);
      return { ...row, config: parseJsonColumn(examConfigSchema, row.config, { fields: [], required: [] }) };
    },
    message: (trx, m) =>
      notifications.notify(trx, {
        officeId: m.officeId,
        candidateId: m.candidateId,
        kind: 'identity_checked',
        applicationId: null,
        examId: null,
        params: { exam: '', title: m.title, content: m.content },
        mobile: '',
        smsWanted: false,
        at: m.at,
      }),
    log: app.log,
  });
  const applications = createApplicationsService({
    repo: repos.applications,
    lifecycle,
    exams,
    positions: repos.positions,
    findCandidate: (officeId, id) => repos.accounts.findById(officeId, id),
    submitGate: async (officeId, candidateId, exam, photoId) => {
      await identity.submitGate(officeId, candidateId, exam);
      // Issue 33: the background colour the exam requires, judged on the stored photo.
      const required = exam.config.photoBackground;
      if (!required) return;
      const photo = await repos.accounts.findPhoto(officeId, photoId);
      if (!photo || !matchesBackground(await storedBackground(photo.data), required))
        throw new AppError(ErrorCode.Validation, photoBackgroundRequiredText(required));
    },
  });
  const { changed } = console;
  const examsAdmin = createExamsAdminService({ repo: repos.exams, exams: examLookup, audit, changed, notifications });
  const attachments = createAttachmentsService({ repo: repos.attachments, audit });
  // Any Excel import of an office: one at a time (also across processes when Redis is configured).
  const importLock = createOfficeLock('import', '另一个导入正在进行，请稍后再试', app.redis, (err) =>
    app.log.warn({ err: { message: err.message } }, 'import lock: redis unavailable, holding the lock in this process only'),
  );
  const reauth = createReauth({ counters, sessions });
  const secondFactor = createSecondFactorService({
    repo: repos.secondFactor,
    cipher,
    config: options.secondFactor,
    audit,
    operatorAudit: (operator, action, detail, ip) =>
      repos.platform.insertAudit({
        operator_id: operator.id,
        operator_name: operator.name,
        action,
        target: `operator:${operator.id}`,
        detail,
        ip,
        at: nowIso(),
      }),
    sessions,
    findStaff: (officeId, id) => repos.staff.find(officeId, id),
  });

  // Confirmation, arrangement, scores and the later stages, the exam's archive and retention's purge.
  const later = composeLaterStages(app, options, {
    repos,
    audit,
    sessions,
    lifecycle,
    exams,
    examLookup,
    positionLookup,
    notifications,
    identity,
    importLock,
    heavy,
    exportWorkers,
    changed,
    queued,
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
      identity,
    }),
    identity,
    identityPublicUrl: options.identity.publicUrl,
    /** The face check's start page loads this provider script (Aliyun's getMetaInfo); null: no start page. */
    identityWebSdkUrl: options.identity.provider === 'aliyun' ? (options.identity.aliyun?.webSdkUrl ?? null) : null,
    personalData: createPersonalDataService({ repo: repos.personalData, cipher, reauth, sessions, audit }),
    appeals: createAppealsService({ repo: repos.appeals, cipher, sessions, audit }),
    applications,
    attachments,
    importLock,
    documents: createDocumentsService(repos.documents, examLookup),
    documentsAdmin: createDocumentsAdminService({ repo: repos.documents, exams: examLookup, attachments, audit, changed }),
    exams,
    examsAdmin,
    notices: createNoticesService(repos.notices),
    notifications,
    smsCodes,
    smsWorker,
    noticesAdmin: createNoticesAdminService({ repo: repos.notices, attachments, audit, changed, exams: examLookup }),
    positions: createPositionsService(repos.positions, exams),
    positionsAdmin: createPositionsAdminService({ repo: repos.positions, audit, changed, exams: examLookup, importLock, heavy }),
    review: createReviewService({
      repo: repos.review,
      findPhoto: (officeId, photoId) => repos.accounts.findPhoto(officeId, photoId),
      lifecycle,
      applicationsRepo: repos.applications,
      cipher,
      audit,
      identityChecks: (officeId, candidateIds) => identity.checksOf(officeId, candidateIds),
      exportFile: (job, failed) =>
        exportWorkers.open(
          {
            kind: 'applications',
            ...job,
            database,
            suite: options.exports.keys.suite,
            dataKey: options.exports.keys.current,
            previousKeys: [...options.exports.keys.previous],
          } satisfies ExportJob,
          failed,
        ),
    }),
    staff: createStaffService({
      repo: repos.staff,
      captcha,
      sessions,
      counters,
      audit,
      secondFactor,
      passwords: passwordPolicy,
      signIns: createStaffSignInSessions({ sessions, audit }),
    }),
    secondFactor,
    // The platform operator's calls: the same captcha service, over the operator's own captcha table.
    platform: createPlatformService({
      repo: repos.platform,
      captcha: createCaptchaService(repos.platform.captcha, captchaOptions),
      counters,
      officeChanged: (officeId) => app.publicCache.invalidate(officeId),
      secondFactor,
      passwords: passwordPolicy,
      idleMs: options.staffPolicy.idleMs,
    }),
    staffAdmin: createStaffAdminService({ repo: repos.staff, audit, sessions, passwords: passwordPolicy }),
    passwordPolicy,
    security: createSecurityService({
      repo: repos.security,
      staff: repos.staff,
      sessions,
      counters,
      audit,
      idleMs: options.staffPolicy.idleMs,
    }),
    system: createSystemService(repos.system),
    systemAdmin: createSystemAdminService({ repo: repos.system, attachments, audit, changed }),
    ...later,
    reminders: createRemindersService({
      repo: repos.reminders,
      notificationsRepo: repos.notifications,
      notifications,
      hoursBefore: options.reminders.hoursBefore,
    }),
    calendar: createCalendarService({ exams: examLookup, tickets: repos.tickets, repo: repos.reminders }),
  };
}

export type Services = ReturnType<typeof composeServices>;

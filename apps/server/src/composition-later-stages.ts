import type { FastifyInstance } from 'fastify';
import type { CompositionOptions } from './composition-options';
import type { Repositories } from './composition-repositories';
import type { ExportJob } from './export-worker';
import type { HeavyTasks } from './heavy-tasks';
import type { OfficeLock } from './lib/office-lock';
import type { createWorkerStreams } from './lib/worker-stream';
import type { ConsoleDeps } from './modules/access/console-deps';
import type { IdentityService } from './modules/access/identity/service';
import type { SessionsService } from './modules/access/sessions/service';
import { createArrangementService } from './modules/arrangement/arrangement/service';
import { createTicketsService } from './modules/arrangement/tickets/service';
import { createCloseoutService } from './modules/confirmation/closeout/service';
import { createPaymentsAdminService } from './modules/confirmation/payments/admin-service';
import { composeProviders } from './modules/confirmation/payments/compose';
import { createPaymentsService } from './modules/confirmation/payments/service';
import { createWaiversService } from './modules/confirmation/waivers/service';
import type { ExamLookup } from './modules/content/exams/lookup';
import type { ExamsService } from './modules/content/exams/service';
import type { PositionLookup } from './modules/content/positions/lookup';
import type { NotificationsService } from './modules/messages/notifications/service';
import { createArchiveService } from './modules/platform/archive/service';
import type { AuditService } from './modules/platform/audit/service';
import { purge } from './modules/platform/retention/purge';
import type { Lifecycle } from './modules/registration/applications/lifecycle';
import { createScoresService } from './modules/scores/scores/service';
import { createLaterLifecycle } from './modules/scores/stages/lifecycle';
import { createStagesService } from './modules/scores/stages/service';

/** What the later stages are built on: the repositories and the services composition.ts made before them. */
export interface LaterStagesBase {
  repos: Repositories;
  audit: AuditService;
  sessions: SessionsService;
  lifecycle: Lifecycle;
  exams: ExamsService;
  examLookup: ExamLookup;
  positionLookup: PositionLookup;
  notifications: NotificationsService;
  identity: IdentityService;
  importLock: OfficeLock;
  heavy: HeavyTasks;
  exportWorkers: ReturnType<typeof createWorkerStreams>;
  changed: ConsoleDeps['changed'];
  /** Wakes the SMS worker after SMS were queued. */
  queued: () => void;
}

/**
 * The services after registration (part of the composition root, composition.ts): confirmation
 * (fees, waivers, close-out), arrangement and tickets, scores and the later stages, and the
 * exam's archive and retention's purge.
 */
export function composeLaterStages(app: FastifyInstance, options: CompositionOptions, base: LaterStagesBase) {
  const { db, cipher } = app;
  const { repos, audit, sessions, lifecycle, exams, examLookup, positionLookup, notifications, identity } = base;
  const { importLock, heavy, exportWorkers, changed, queued } = base;
  const { database } = options.exports;

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
  // The machine after confirmation has one writer; 放弃面试 and 递补 (scores) and the stages' results go through it.
  const later = createLaterLifecycle({ repo: repos.stages, audit });
  const scores = createScoresService({
    repo: repos.scores,
    audit,
    later,
    // Read at call time: the stages compute each entrant's state from the scores' interview list.
    laterStates: (officeId, examId) => stages.states(officeId, examId),
    exams: examLookup,
    notifications,
    importLock,
    changed,
    version: (officeId) => app.publicCache.version(officeId),
    heavy,
    exportFile: (job, failed) => exportWorkers.open({ kind: 'ranking', ...job, database } satisfies ExportJob, failed),
  });
  const stages = createStagesService({
    repo: repos.stages,
    scores,
    audit,
    later,
    exams: examLookup,
    importLock,
    changed,
    notifications,
    heavy,
  });
  const tickets = createTicketsService({
    repo: repos.tickets,
    cipher,
    audit,
    exams: examLookup,
    notifications,
    findPhoto: (officeId, id) => repos.accounts.findPhoto(officeId, id),
    findRoom: (officeId, id) => repos.arrangement.room(officeId, id),
    identityChecks: (officeId, candidateIds) => identity.checksOf(officeId, candidateIds),
  });
  // An exam's archive (issue 36): written by the export worker, its PDFs made as the console makes them.
  const archive = createArchiveService({
    db: db.kysely,
    exams: examLookup,
    audit,
    keys: options.exports.keys,
    dir: options.archiveDir,
    writeArchive: (job, failed, timedOut) =>
      exportWorkers.open({ kind: 'archive', ...job, database } satisfies ExportJob, failed, timedOut),
    interviewListPdf: (staff, office, examId, ip) => scores.exportInterviewListPdf(staff, office, examId, ip),
    roomSheetsPdf: (staff, office, q, ip) => tickets.roomSheets(staff, office, q, ip),
    log: (err, msg) => app.log.error({ err }, msg),
  });
  // Retention's purge (issue 36): the daily job and `npm run purge` call it with a date.
  const retention = {
    purge: (o: { asOf: string; dryRun: boolean }) =>
      purge(
        {
          db: db.kysely,
          cipher,
          audit,
          laterStates: (officeId, examId) => stages.states(officeId, examId),
          deleteCandidate: (officeId, candidateId, record) => repos.personalData.deleteCandidate(officeId, candidateId, record),
          enqueueSms: (trx, m) => repos.sms.enqueue(trx, m),
          inactiveYears: options.accountInactiveYears,
          accountDeleted: (candidateId) => sessions.deleted('candidate', candidateId),
          queued,
        },
        o,
      ),
  };
  const closeout = createCloseoutService({
    positions: positionLookup,
    repo: repos.closeout,
    applications: repos.applications,
    lifecycle,
    exams,
    examLookup,
    payments,
    audit,
    notifications,
    commit: (work) => repos.payments.commit(work),
    changed,
    findCandidate: (officeId, id) => repos.accounts.findById(officeId, id),
  });

  return {
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
    stages,
    tickets,
    archive,
    retention,
  };
}

import type { FastifyInstance } from 'fastify';
import { createAccountsRepository } from './modules/access/accounts/repository';
import { createPersonalDataRepository } from './modules/access/accounts/personal-data-repository';
import { createAppealsRepository } from './modules/registration/appeals/repository';
import { createApplicationsRepository } from './modules/registration/applications/repository';
import { createAttachmentsRepository } from './modules/content/attachments/repository';
import { createAuditRepository } from './modules/platform/audit/repository';
import { createCaptchaRepository } from './modules/access/captcha/repository';
import { createDocumentsRepository } from './modules/content/documents/repository';
import { createExamsRepository } from './modules/content/exams/repository';
import { createHealthRepository } from './modules/platform/health/repository';
import { createNoticesRepository } from './modules/content/notices/repository';
import { createPositionsRepository } from './modules/content/positions/repository';
import { createReviewRepository } from './modules/registration/review/repository';
import { createSessionsRepository } from './modules/access/sessions/repository';
import { createSecurityRepository } from './modules/access/security/repository';
import { createStaffRepository } from './modules/access/staff/repository';
import { createSecondFactorRepository } from './modules/access/totp/repository';
import { createSystemRepository } from './modules/platform/system/repository';
import { createNotificationsRepository } from './modules/messages/notifications/repository';
import { createRemindersRepository } from './modules/messages/reminders/repository';
import { createSmsCodesRepository } from './modules/messages/sms/codes-repository';
import { createSmsRepository } from './modules/messages/sms/repository';
import { createArrangementRepository } from './modules/arrangement/arrangement/repository';
import { createCloseoutRepository } from './modules/confirmation/closeout/repository';
import { createTicketsRepository } from './modules/arrangement/tickets/repository';
import { createScoresRepository } from './modules/scores/scores/repository';
import { createStagesRepository } from './modules/scores/stages/repository';
import { createPlatformRepository } from './modules/platform/offices/repository';
import { createPaymentsRepository } from './modules/confirmation/payments/repository';
import { createSandboxRepository } from './modules/confirmation/payments/sandbox-repository';
import { createWaiversRepository } from './modules/confirmation/waivers/repository';
import { createIdentityRepository } from './modules/access/identity/repository';

/**
 * Every repository of one app instance, each over the app's database (the audit's and the
 * platform's also with the audit MAC's key); built once by composition.ts as `services.repos`.
 */
export function createRepositories({ db, auditMac }: Pick<FastifyInstance, 'db' | 'auditMac'>) {
  return {
    accounts: createAccountsRepository(db),
    appeals: createAppealsRepository(db),
    applications: createApplicationsRepository(db),
    attachments: createAttachmentsRepository(db),
    audit: createAuditRepository(db, auditMac),
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
    security: createSecurityRepository(db),
    system: createSystemRepository(db),
    payments: createPaymentsRepository(db),
    sandbox: createSandboxRepository(db),
    waivers: createWaiversRepository(db),
    closeout: createCloseoutRepository(db),
    arrangement: createArrangementRepository(db),
    tickets: createTicketsRepository(db),
    scores: createScoresRepository(db),
    stages: createStagesRepository(db),
    platform: createPlatformRepository(db, auditMac),
    secondFactor: createSecondFactorRepository(db),
    reminders: createRemindersRepository(db),
    identity: createIdentityRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

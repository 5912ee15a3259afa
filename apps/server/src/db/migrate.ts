import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './database';
import { init } from './migrations/0001_init';
import { accounts } from './migrations/0002_accounts';
import { registration } from './migrations/0003_registration';
import { console_ } from './migrations/0004_console';
import { content } from './migrations/0005_content';
import { appeals } from './migrations/0006_appeals';
import { attachments } from './migrations/0008_attachments';
import { notifications } from './migrations/0011_notifications';
import { candidateJourney } from './migrations/0012_candidate_journey';
import { scale } from './migrations/0013_scale';
import { confirmation } from './migrations/0010_confirmation';
import { arrangement } from './migrations/0014_arrangement';
import { scores } from './migrations/0015_scores';
import { siteCity } from './migrations/0016_site_city';
import { scoreStages } from './migrations/0017_score_stages';
import { laterStages } from './migrations/0018_later_stages';
import { tallyAtCommit } from './migrations/0019_tally_at_commit';
import { foreignKeyIndexes } from './migrations/0020_foreign_key_indexes';
import { ticketCheckIn } from './migrations/0021_ticket_check_in';
import { applicationNoAndExamNotices } from './migrations/0022_application_no_and_exam_notices';
import { reviewReasons } from './migrations/0023_review_reasons';
import { laterHistory } from './migrations/0024_later_history';
import { platform } from './migrations/0025_platform';
import { platformCaptcha } from './migrations/0026_platform_captcha';
import { secondFactor } from './migrations/0027_second_factor';
import { staffPasswordPolicy } from './migrations/0028_staff_password_policy';
import { auditChain } from './migrations/0030_audit_chain';
import { cryptoSuite } from './migrations/0031_crypto_suite';
import { identityCheck } from './migrations/0032_identity_check';
import { reminders } from './migrations/0033_reminders';
import { examArchiveAndRetention } from './migrations/0035_exam_archive_and_retention';
import { identityBackfill } from './migrations/0036_identity_backfill';
import { dailyJobLease } from './migrations/0038_daily_job_lease';

/**
 * Every migration by name, as Kysely runs them (in name order). They are listed here, not read
 * from a folder, so that the bundled server carries them; each is written once with Kysely's
 * schema builder and runs on SQLite and PostgreSQL alike.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_init': init(dialect),
    '0002_accounts': accounts(dialect),
    '0003_registration': registration(dialect),
    '0004_console': console_(dialect),
    '0005_content': content(dialect),
    '0006_appeals': appeals(dialect),
    '0008_attachments': attachments(dialect),
    '0011_notifications': notifications(dialect),
    '0012_candidate_journey': candidateJourney(dialect),
    '0013_scale': scale(dialect),
    '0010_confirmation': confirmation(dialect),
    '0014_arrangement': arrangement(dialect),
    '0015_scores': scores(dialect),
    '0016_site_city': siteCity(dialect),
    '0017_score_stages': scoreStages(dialect),
    '0018_later_stages': laterStages(dialect),
    '0019_tally_at_commit': tallyAtCommit(dialect),
    '0020_foreign_key_indexes': foreignKeyIndexes(dialect),
    '0021_ticket_check_in': ticketCheckIn(dialect),
    '0022_application_no_and_exam_notices': applicationNoAndExamNotices(dialect),
    '0023_review_reasons': reviewReasons(dialect),
    '0024_later_history': laterHistory(dialect),
    '0025_platform': platform(dialect),
    '0026_platform_captcha': platformCaptcha(),
    '0027_second_factor': secondFactor(dialect),
    '0028_staff_password_policy': staffPasswordPolicy(),
    '0030_audit_chain': auditChain(),
    '0031_crypto_suite': cryptoSuite(),
    '0032_identity_check': identityCheck(dialect),
    '0033_reminders': reminders(),
    '0035_exam_archive_and_retention': examArchiveAndRetention(),
    '0036_identity_backfill': identityBackfill(),
    '0038_daily_job_lease': dailyJobLease(),
  };
}

function provider(db: Db): MigrationProvider {
  return { getMigrations: () => Promise.resolve(migrations(db.dialect)) };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: provider(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

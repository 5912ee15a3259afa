import { failureGuard, type FailureGuard } from '../../../lib/failure-guard';
import type { CounterStore } from '../../../lib/throttle';

/**
 * The staff sign-in's failure counters, keyed by the office and the normalised username: counted
 * by the sign-in (staff/service.ts), read and cleared by 安全管理 (access/security). Counter
 * families are shared by name, so each caller's guard sees the same counts.
 */
export const staffLoginGuard = (counters: CounterStore | null): FailureGuard => failureGuard(counters, 'staff-login', '登录');

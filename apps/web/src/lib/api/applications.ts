import type { MyApplication } from '@zhikaoyun/shared';
import { getData } from '../api-client';

/**
 * The candidate's own applications (我的报名): the status page, the personal center, the exam
 * cards and the score page all read them. Without TanStack Query (the exam list reads it on a page
 * built without it); the hook is in ./applications-queries.ts.
 */
export const fetchMyApplications = () => getData<MyApplication[]>('/api/getMyApplications');

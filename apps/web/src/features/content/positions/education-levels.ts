import type { Education } from '@zhikaoyun/shared';

/**
 * packages/shared's EDUCATION_LEVELS (lowest first), for the position list's filter. Importing
 * the constant from there would bring its module's schemas and all of zod to the public list's
 * first load (the module's chunk is shared with the pages that validate positions), so the list
 * is written here; the type ties each entry to the shared one, and apps/web/test/positions.test.ts
 * checks that the two lists are the same.
 */
export const EDUCATION_FILTER_LEVELS = ['高中（中专）', '大专', '本科', '硕士研究生', '博士研究生'] as const satisfies readonly Education[];

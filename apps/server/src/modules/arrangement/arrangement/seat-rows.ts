import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';

/**
 * The seats of exams joined to where and what (site `si`, room `r`, paper `j`) and to whom
 * (application `a`, candidate `c`, position `p`, ticket `t`), for the repositories that list
 * seated candidates: the arrangement's search, the room sheets and the arrangement export.
 * The caller picks the columns and the exam.
 */
export function seatRows(k: Kysely<DB>) {
  return k
    .selectFrom('exam_seat as s')
    .innerJoin('exam_site as si', 'si.id', 's.site_id')
    .innerJoin('exam_room as r', 'r.id', 's.room_id')
    .innerJoin('exam_subject as j', 'j.id', 's.subject_id')
    .innerJoin('application as a', 'a.id', 's.application_id')
    .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
    .leftJoin('position as p', 'p.id', 'a.position_id')
    .leftJoin('admission_ticket as t', 't.application_id', 's.application_id');
}

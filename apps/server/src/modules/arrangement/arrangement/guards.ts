import { ErrorCode } from '@zhikaoyun/shared';
import { AppError } from '../../../lib/app-error';
import type { ExamLookup } from '../../content/exams/lookup';

/** The exam an arrangement call works on; `unpublished` refuses it once its tickets are published. */
export function arrangementExams(exams: ExamLookup) {
  async function openExam(officeId: number, examId: number) {
    const exam = await exams.require(officeId, examId);
    return exam;
  }
  async function unpublished(officeId: number, examId: number) {
    const exam = await openExam(officeId, examId);
    if (exam.tickets_published_at !== null)
      throw new AppError(ErrorCode.Validation, '准考证已发布，编排不能再改；如需调整请单独调动考生座位');
    return exam;
  }
  return { openExam, unpublished };
}

import { download } from '../api-client';

/**
 * Saves the candidate's calendar of an exam (.ics: deadlines, papers and sites, each with an alarm
 * the day before), fetched with the candidate's own session as the ticket's PDF is; a refusal is
 * thrown for the button to say.
 */
export const downloadExamCalendar = (examId: number, examName: string) =>
  download('/api/getExamCalendar', { params: { examId }, silent: true }, `考试日程-${examName.replace(/[\\/:*?"<>|\s]+/g, '_')}.ics`);

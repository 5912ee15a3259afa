import { useQuery } from '@tanstack/react-query';
import type { AdminExam, Position } from '@zhikaoyun/shared';
import { getData } from '../console-http';
import { arrangementKeys, examKeys, positionKeys } from './console-keys';

// The console's calls that several console features read (features do not import each other):
// the office's exams (every page that picks an exam), an exam's positions (the positions page and
// the review queue's filters) and its subjects (the arrangement page and the position editor).

export const fetchAdminExams = () => getData<AdminExam[]>('/api/admin/getExamList');

export function useAdminExams() {
  return useQuery({ queryKey: examKeys.all(), queryFn: fetchAdminExams });
}

export function useExamPositions(examId: number | undefined) {
  return useQuery({
    queryKey: positionKeys.list(examId),
    queryFn: () => getData<Position[]>('/api/admin/getPositionList', { params: { examId } }),
    enabled: examId !== undefined,
  });
}

export interface ExamSubject {
  id: number;
  name: string;
  startAt: string;
  endAt: string;
}

export function useExamSubjects(examId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: arrangementKeys.subjects(examId),
    queryFn: () => getData<ExamSubject[]>('/api/admin/getExamSubjects', { params: { examId } }),
    enabled: enabled && examId !== undefined,
  });
}

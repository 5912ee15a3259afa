import type { Exam } from '@zhikaoyun/shared';
import { Button, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from './plain/Empty';
import { MobileContainerCard } from './MobileContainerCard';
import { useActiveExam } from '../lib/api/exams-queries';

/** Renders its page for the exam being applied to, or says how to choose one. */
export function ExamGate({ children }: { children: (exam: Exam) => ReactNode }) {
  const { exam, isLoading } = useActiveExam();
  const navigate = useNavigate();
  if (isLoading || exam === undefined) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 5 }} />
      </MobileContainerCard>
    );
  }
  if (!exam) {
    return (
      <EmptyState
        text="请先在考试列表中选择要报名的考试"
        action={
          <Button type="primary" onClick={() => void navigate('/exam-list')}>
            选择考试
          </Button>
        }
      />
    );
  }
  return <>{children(exam)}</>;
}

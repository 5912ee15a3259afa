import { Skeleton } from 'antd';
import { EmptyState } from '../../../components/EmptyState';
import { ExamTitle } from '../../../components/ExamTitle';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useActiveExam } from '../../../lib/exam-api';
import { PositionBrowser } from '../components/PositionBrowser';

/** 招聘岗位 (read-only, public): the current exam's positions, no login needed. */
export default function JobPositionsReadOnlyPage() {
  const { exam, isLoading } = useActiveExam();
  if (isLoading) {
    return (
      <MobileContainerCard>
        <Skeleton active />
      </MobileContainerCard>
    );
  }
  if (!exam) return <EmptyState text="目前没有发布的考试" />;
  return (
    <>
      <MobileContainerCard>
        <ExamTitle name={exam.name} subtitle="登录后可查看自己是否符合各岗位的报考条件。" />
      </MobileContainerCard>
      <PositionBrowser examId={exam.id} withEligibility={false} />
    </>
  );
}

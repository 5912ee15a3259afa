import type { Exam } from '@zhikaoyun/shared';
import { EmptyState } from '../../../../components/plain/Empty';
import { ExamTitle } from '../../../../components/ExamTitle';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { Skeleton } from '../../../../components/plain/Skeleton';
import { usePublicActiveExam } from '../../../../lib/api/exams';
import { PositionBrowser } from '../components/PositionBrowser';
import { usePositionFilter, usePublicPositionPage } from '../../../../lib/api/positions';

function Positions({ exam }: { exam: Exam }) {
  const { filter, change, turn } = usePositionFilter();
  const positions = usePublicPositionPage(exam.id, filter);
  return (
    <>
      <MobileContainerCard>
        <ExamTitle name={exam.name} subtitle="登录后可查看自己是否符合各岗位的报考条件。" />
      </MobileContainerCard>
      <PositionBrowser filter={filter} onFilter={change} onPage={turn} positions={positions} />
    </>
  );
}

/**
 * 招聘岗位 (read-only, public): the current exam's positions, no login needed. Plain HTML and
 * lib/public-query.ts (no antd runtime, no TanStack Query): the server renders it with the first
 * page of positions, and the browser's first load stays light.
 */
export default function JobPositionsReadOnlyPage() {
  const { exam, isLoading } = usePublicActiveExam();
  if (isLoading || exam === undefined) {
    return (
      <MobileContainerCard>
        <Skeleton rows={5} />
      </MobileContainerCard>
    );
  }
  if (!exam) return <EmptyState text="目前没有发布的考试，请关注通知公告" />;
  return <Positions exam={exam} />;
}

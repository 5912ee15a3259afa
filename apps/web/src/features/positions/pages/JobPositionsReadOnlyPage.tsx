import { ExamGate } from '../../../components/ExamGate';
import { ExamTitle } from '../../../components/ExamTitle';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { PositionBrowser } from '../components/PositionBrowser';

/** 招聘岗位 (read-only, public): the current exam's positions, no login needed. */
export default function JobPositionsReadOnlyPage() {
  return (
    <ExamGate guest>
      {(exam) => (
        <>
          <MobileContainerCard>
            <ExamTitle name={exam.name} subtitle="登录后可查看自己是否符合各岗位的报考条件。" />
          </MobileContainerCard>
          <PositionBrowser examId={exam.id} withEligibility={false} />
        </>
      )}
    </ExamGate>
  );
}

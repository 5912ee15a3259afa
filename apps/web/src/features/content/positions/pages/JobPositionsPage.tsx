import type { Exam } from '@zhikaoyun/shared';
import { Button, Switch } from 'antd';
import { useNavigate } from 'react-router';
import { ExamGate } from '../../../../components/ExamGate';
import { ExamTitle } from '../../../../components/ExamTitle';
import { JourneySteps } from '../../../../components/JourneySteps';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { usePositionPage } from '../queries';
import { PositionBrowser } from '../components/PositionBrowser';
import { usePositionFilter } from '../../../../lib/api/positions';

function Positions({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const open = exam.phase === 'registering';
  const { filter, change, turn } = usePositionFilter();
  const positions = usePositionPage(exam.id, filter, true);
  return (
    <>
      <MobileContainerCard>
        {open && <JourneySteps current={2} exam={exam} />}
        <ExamTitle
          name={exam.name}
          subtitle={open ? '根据您填写的报考信息判断是否符合报考条件；每人限报一个岗位。' : '当前不在报名时间内，仅可查看岗位。'}
        />
      </MobileContainerCard>
      <PositionBrowser
        filter={filter}
        onFilter={change}
        onPage={turn}
        positions={positions}
        extraFilter={
          <label className="position-filters__eligible">
            <Switch size="small" checked={filter.eligibleOnly} onChange={(eligibleOnly) => change({ eligibleOnly })} />
            只看可报岗位
          </label>
        }
        action={
          open
            ? (p) => (
                <Button
                  type="primary"
                  block
                  disabled={p.eligible === false}
                  onClick={() => void navigate(`/confirm-info?positionId=${p.id}`)}
                >
                  {p.eligible === false ? '不符合报考条件' : '选择此岗位'}
                </Button>
              )
            : undefined
        }
      />
    </>
  );
}

/** 招聘岗位: each position says whether the candidate qualifies; choosing one goes to confirmation. */
export default function JobPositionsPage() {
  return <ExamGate>{(exam) => <Positions exam={exam} />}</ExamGate>;
}

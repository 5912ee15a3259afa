import { journeyOf, showsReviewOpinion, type MyApplication } from '@zhikaoyun/shared';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { chooseExam } from '../lib/api/exams';
import { DeadlineCountdown } from './DeadlineCountdown';
import { JourneySteps } from './JourneySteps';
import { JourneyHeadline, StatusTag } from './StatusTag';

/**
 * One exam the candidate applied to, in 我的报名: its state, the review's reason, the step bar,
 * the next step with its deadline, and the way there.
 */
export function MyApplicationCard({ application: a, hasPhoto }: { application: MyApplication; hasPhoto: boolean }) {
  const navigate = useNavigate();
  const journey = journeyOf(a.exam, a, hasPhoto);
  const action = journey.action;
  const go = (path: string) => {
    chooseExam(a.exam);
    void navigate(path);
  };
  return (
    <article className="mobile-card my-application" aria-label={a.exam.name}>
      <header className="my-application__head">
        <h3 className="my-application__exam">{a.exam.name}</h3>
        {!journey.headline && <StatusTag status={a.status} />}
      </header>
      {journey.headline && <JourneyHeadline text={journey.headline} urgent={journey.stepStatus === 'error'} />}
      {a.applicationNo && <p className="my-application__position">报名号：{a.applicationNo}</p>}
      {a.position && (
        <p className="my-application__position">
          报考岗位：{a.position.name}（{a.position.code}）· {a.position.unit}
        </p>
      )}
      <JourneySteps current={journey.step} status={journey.stepStatus} exam={a.exam} />
      {showsReviewOpinion(a.status) && a.reason && (
        <p className="my-application__reason">
          <strong>审核意见：</strong>
          {a.reason}
        </p>
      )}
      <p className="my-application__next">
        <strong>下一步：</strong>
        {journey.next}
      </p>
      {journey.deadline && <DeadlineCountdown deadline={journey.deadline} />}
      <div className="my-application__actions">
        {action && (
          <Button type="primary" onClick={() => go(action.path)}>
            {action.label}
          </Button>
        )}
        {action?.path !== '/current-exam' && <Button onClick={() => go('/current-exam')}>查看报考状态</Button>}
      </div>
    </article>
  );
}

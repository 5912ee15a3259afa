import { useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Skeleton } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formLock, fromStatesOf, type Exam } from '@zhikaoyun/shared';
import { ExamTitle } from '../../../../components/ExamTitle';
import { GroupTitle } from '../../../../components/GroupTitle';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { fetchApplication, saveApplication, useApplication, useExamDocuments } from '../api';
import { applicationKeys } from '../../../../lib/api/keys';
import { ExamGate } from '../../../../components/ExamGate';
import { JourneySteps } from '../../../../components/JourneySteps';
import { ReviewOpinion } from '../components/ReviewOpinion';

function Instructions({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const docs = useExamDocuments(exam.id);
  const application = useApplication(exam.id);
  const [agreed, setAgreed] = useState(false);
  const [saving, setSaving] = useState(false);
  const notice = docs.data?.find((d) => d.type === 'notice');
  const pledge = docs.data?.find((d) => d.type === 'pledge');
  const guide = docs.data?.find((d) => d.type === 'guide');
  const alreadyPledged = application.data?.form.pledge === true;
  const submitted = formLock(application.data?.status) !== null;
  // Rejected but may be sent again: the opinion to act on, and the way back to the form.
  const status = application.data?.status;
  const rejected = !!status && fromStatesOf('resubmit').includes(status);

  async function start() {
    if (!alreadyPledged) {
      setSaving(true);
      try {
        // The pledge is part of the application: the server will not accept a submit without it.
        // The form is read fresh, so that a cached copy never overwrites what was saved since.
        const fresh = await fetchApplication(exam.id);
        const saved = await saveApplication(exam.id, { ...(fresh?.form ?? {}), pledge: true }, undefined, false, fresh?.version ?? 0);
        // The form page starts from this draft, not from the copy read before the pledge.
        client.setQueryData(applicationKeys.detail(exam.id), saved);
      } catch {
        setSaving(false);
        return;
      }
    }
    void navigate('/fill-info');
  }

  if (docs.isLoading || application.isLoading) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 10 }} />
      </MobileContainerCard>
    );
  }
  return (
    <div className="instructions-page">
      <MobileContainerCard>
        <JourneySteps current={0} exam={exam} />
        <ExamTitle name={exam.name} subtitle="请仔细阅读招聘公告和报考须知，签署诚信承诺后开始填写报考信息。" />
        {rejected && <ReviewOpinion reason={application.data?.reason ?? ''} />}
      </MobileContainerCard>
      {notice && (
        <MobileContainerCard title={notice.title}>
          <div className="rich-text" dangerouslySetInnerHTML={{ __html: notice.content }} />
        </MobileContainerCard>
      )}
      {guide && (
        <MobileContainerCard title={guide.title}>
          <div className="rich-text" dangerouslySetInnerHTML={{ __html: guide.content }} />
        </MobileContainerCard>
      )}
      <GroupTitle>{pledge?.title ?? '诚信报考承诺书'}</GroupTitle>
      <MobileContainerCard className="pledge-card">
        {pledge && <div className="rich-text" dangerouslySetInnerHTML={{ __html: pledge.content }} />}
        {submitted ? (
          <Button type="primary" size="large" block onClick={() => void navigate('/current-exam')}>
            已提交报名，查看报考状态
          </Button>
        ) : exam.phase !== 'registering' ? (
          <p className="pledge-card__closed">当前不在报名时间内。</p>
        ) : (
          <>
            <Checkbox
              checked={agreed || alreadyPledged}
              disabled={alreadyPledged}
              onChange={(e) => setAgreed(e.target.checked)}
              className="pledge-card__check"
            >
              我已认真阅读招聘公告和报考须知，并郑重作出以上承诺
            </Checkbox>
            <Button type="primary" size="large" block disabled={!agreed && !alreadyPledged} loading={saving} onClick={() => void start()}>
              {rejected ? '按审核意见修改报考信息' : alreadyPledged ? '继续填写报考信息' : '签署承诺并开始填写'}
            </Button>
          </>
        )}
      </MobileContainerCard>
    </div>
  );
}

/** 报考须知: the exam's notice and the integrity pledge, accepted before filling in. */
export default function ApplicationInstructionsPage() {
  return <ExamGate>{(exam) => <Instructions exam={exam} />}</ExamGate>;
}

import { Alert, App, Button, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { DIALOG_WIDTH, formLock, showsReviewOpinion, type Exam } from '@zhikaoyun/shared';
import { ExamTitle } from '../../../../components/ExamTitle';
import { GroupTitle } from '../../../../components/GroupTitle';
import { MobileBaseInfoCard } from '../../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useIdentityStatus, useUserInfo } from '../../../../lib/api/accounts';
import { IdentityCheck, identityBlocks } from '../components/IdentityCheck';
import { isConflict, saveApplication, useApplication, usePosition, useStatusChange } from '../api';
import { applicationKeys } from '../../../../lib/api/keys';
import { ExamGate } from '../../../../components/ExamGate';
import { JourneySteps } from '../../../../components/JourneySteps';
import { FormSummary } from '../components/FormSummary';
import { ReviewOpinion } from '../components/ReviewOpinion';
import { useQueryClient } from '@tanstack/react-query';

function Confirm({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  // Read fresh: the photo may have been uploaded in another tab or in the personal center.
  const userInfo = useUserInfo().data ?? null;
  const application = useApplication(exam.id);
  const chosen = Number(params.get('positionId')) || null;
  const [choosing, setChoosing] = useState(chosen !== null);
  const position = usePosition(application.data?.positionId ?? null);
  const submit = useStatusChange('submit', exam.id);
  // Read on every visit: coming back from a face check, the server asks the provider for its result.
  const identity = useIdentityStatus();

  // A position chosen on the positions page is saved into the draft first, then the URL is cleaned.
  useEffect(() => {
    if (chosen === null || !application.isSuccess) return;
    const draft = application.data;
    if (draft && draft.positionId === chosen) {
      setChoosing(false);
      setParams({}, { replace: true });
      return;
    }
    saveApplication(exam.id, undefined, chosen).then(
      (saved) => {
        client.setQueryData(applicationKeys.detail(exam.id), saved);
        setChoosing(false);
        setParams({}, { replace: true });
      },
      () => {
        setChoosing(false);
        setParams({}, { replace: true });
      },
    );
  }, [chosen, application.isSuccess, application.data, exam.id, client, setParams]);

  // The submit names the version shown: wait for this visit's own read, never a cached older copy.
  if (application.isLoading || !application.isFetchedAfterMount || choosing) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 10 }} />
      </MobileContainerCard>
    );
  }
  const app = application.data;
  if (formLock(app?.status)) return <Navigate to="/current-exam" replace />;

  function confirmSubmit() {
    modal.confirm({
      title: '确认提交报名',
      content: '提交后进入资格审查，审核前可撤回修改。确定提交吗？',
      okText: '确认提交',
      cancelText: '再检查一下',
      width: DIALOG_WIDTH,
      // The version shown on this page: a form changed since elsewhere is not submitted unseen.
      onOk: () =>
        submit.mutateAsync(app?.version).then(
          () => navigate('/current-exam'),
          (err: unknown) => {
            if (isConflict(err)) void application.refetch();
          },
        ),
    });
  }

  const p = position.data;
  return (
    <div className="confirm-page">
      <MobileContainerCard>
        <JourneySteps current={3} status={showsReviewOpinion(app?.status) ? 'error' : 'process'} exam={exam} />
        <ExamTitle name={exam.name} subtitle="请核对以下信息，确认无误后提交。" />
        {app && showsReviewOpinion(app.status) && <ReviewOpinion reason={app.reason} />}
      </MobileContainerCard>
      <IdentityCheck exam={exam} status={identity.data} />
      {userInfo && <MobileBaseInfoCard userInfo={userInfo} showTitle={false} mobileLabel="账号手机" />}
      {userInfo && !userInfo.photo && (
        <Alert
          className="review-opinion"
          type="warning"
          showIcon
          title="尚未上传证件照，不能提交报名"
          action={
            <Button size="small" type="link" onClick={() => void navigate('/fill-info')}>
              去上传
            </Button>
          }
        />
      )}
      <GroupTitle
        extra={
          <Button type="link" onClick={() => void navigate('/job-positions')}>
            {p ? '更换' : '去选择'}
          </Button>
        }
      >
        报考岗位
      </GroupTitle>
      <MobileContainerCard>
        {p ? (
          <div className="confirm-position">
            <p className="confirm-position__name">
              {p.name} <span>（{p.code}）</span>
            </p>
            <p>{p.unit}</p>
            <p>
              招聘 {p.headcount} 人，已报名 {p.applicants} 人
            </p>
            {p.eligible === false && <p className="confirm-position__warn">暂不符合报考条件：{p.reasons?.join('；')}</p>}
          </div>
        ) : (
          <p className="confirm-position__none">尚未选择岗位</p>
        )}
      </MobileContainerCard>
      <GroupTitle
        extra={
          <Button type="link" onClick={() => void navigate('/fill-info')}>
            修改
          </Button>
        }
      >
        报考信息
      </GroupTitle>
      <MobileContainerCard>
        <FormSummary form={app?.form ?? {}} fields={exam.config.fields} />
      </MobileContainerCard>
      <div className="page-actions">
        <Button
          type="primary"
          size="large"
          block
          loading={submit.isPending}
          disabled={!p || !userInfo?.photo || exam.phase !== 'registering' || identityBlocks(exam, identity.data)}
          onClick={confirmSubmit}
        >
          确认并提交报名
        </Button>
      </div>
    </div>
  );
}

/** 确认报考信息: everything in one place; submit. The server checks it all again. */
export default function ConfirmInfoPage() {
  return <ExamGate>{(exam) => <Confirm exam={exam} />}</ExamGate>;
}

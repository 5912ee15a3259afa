import { CheckCircleFilled, ClockCircleFilled, CloseCircleFilled, EditFilled } from '@ant-design/icons';
import { APPLICATION_STATUS_LABEL, DIALOG_WIDTH, type ApplicationStatus, type Exam } from '@zhikaoyun/shared';
import { App, Button, Skeleton, Timeline } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ExamTitle } from '../../../components/ExamTitle';
import { formatDateTime } from '../../../components/format';
import { GroupTitle } from '../../../components/GroupTitle';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { useApplyStatus, usePosition, useStatusChange } from '../api';
import { ExamGate } from '../../../components/ExamGate';

const LOOK: Record<ApplicationStatus, { icon: ReactNode; tone: string; words: string }> = {
  draft: { icon: <EditFilled />, tone: 'draft', words: '报名信息尚未提交。请完成填写、选择岗位并确认提交。' },
  submitted: {
    icon: <ClockCircleFilled />,
    tone: 'submitted',
    words: '已提交，等待资格审查。审核结果会显示在这里，一般在 2 个工作日内完成；审核前如需修改，可先撤回。',
  },
  approved: {
    icon: <CheckCircleFilled />,
    tone: 'approved',
    words: '资格审查已通过，报名信息已锁定。请关注通知公告，按时打印准考证并参加考试。',
  },
  rejected: {
    icon: <CloseCircleFilled />,
    tone: 'rejected',
    words: '资格审查未通过。请按下方审核意见修改报考信息后重新提交（须在报名截止前）。',
  },
};

function Status({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const status = useApplyStatus(exam.id);
  const position = usePosition(status.data?.positionId ?? null);
  const withdraw = useStatusChange('withdraw', exam.id);

  if (status.isLoading || !status.data) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 6 }} />
      </MobileContainerCard>
    );
  }
  const s = status.data;
  if (s.status === null) {
    return (
      <MobileContainerCard>
        <ExamTitle name={exam.name} />
        <div className="status-card is-none">
          <p className="status-card__words">您还没有报名本次考试。</p>
          {s.canEdit && (
            <Button type="primary" size="large" block onClick={() => navigate('/application-instructions')}>
              开始报名
            </Button>
          )}
        </div>
      </MobileContainerCard>
    );
  }
  const look = LOOK[s.status];
  return (
    <div className="current-exam-page">
      <MobileContainerCard>
        <ExamTitle name={exam.name} />
        <div className={`status-card is-${look.tone}`}>
          <p className="status-card__label">
            <span aria-hidden>{look.icon}</span> {APPLICATION_STATUS_LABEL[s.status]}
          </p>
          <p className="status-card__words">{look.words}</p>
          {s.status === 'rejected' && s.reason && (
            <p className="status-card__reason">
              <strong>审核意见：</strong>
              {s.reason}
            </p>
          )}
          {s.status !== 'draft' && s.status !== 'rejected' && !s.canEdit && !s.canWithdraw && s.status === 'submitted' && (
            <p className="status-card__words">报名已截止，请耐心等待审核结果。</p>
          )}
        </div>
        {position.data && (
          <p className="status-position">
            报考岗位：{position.data.name}（{position.data.code}），{position.data.unit}
          </p>
        )}
        <div className="status-actions">
          {s.canEdit && (
            <Button type="primary" size="large" block onClick={() => navigate('/fill-info')}>
              {s.status === 'rejected' ? '修改并重新提交' : '继续填写'}
            </Button>
          )}
          {s.canWithdraw && (
            <Button
              size="large"
              block
              loading={withdraw.isPending}
              onClick={() =>
                modal.confirm({
                  title: '撤回报名',
                  content: '撤回后报名回到草稿状态，修改后需重新提交。确定撤回吗？',
                  okText: '撤回',
                  cancelText: '取消',
                  width: DIALOG_WIDTH,
                  onOk: () => withdraw.mutateAsync().catch(() => undefined),
                })
              }
            >
              撤回修改
            </Button>
          )}
        </div>
      </MobileContainerCard>
      <GroupTitle>办理记录</GroupTitle>
      <MobileContainerCard>
        <Timeline
          items={[...s.history].reverse().map((h) => ({
            color: h.status === 'approved' ? 'green' : h.status === 'rejected' ? 'red' : 'blue',
            content: (
              <div className="history-item">
                <span className="history-item__status">
                  {h.actor === 'staff' ? '审核：' : ''}
                  {APPLICATION_STATUS_LABEL[h.status]}
                </span>
                <span className="history-item__at">{formatDateTime(h.at)}</span>
                {h.reason && <span className="history-item__reason">{h.reason}</span>}
              </div>
            ),
          }))}
        />
      </MobileContainerCard>
    </div>
  );
}

/** 报考状态: where the application stands and, in plain words, what to do next. */
export default function CurrentExamPage() {
  return <ExamGate>{(exam) => <Status exam={exam} />}</ExamGate>;
}

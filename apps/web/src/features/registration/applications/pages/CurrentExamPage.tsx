import {
  CheckCircleFilled,
  ClockCircleFilled,
  CloseCircleFilled,
  EditFilled,
  ExclamationCircleFilled,
  NotificationOutlined,
} from '@ant-design/icons';
import {
  APPLICATION_STATES,
  APPLICATION_STATUS_LABEL,
  DIALOG_WIDTH,
  fromStatesOf,
  historyWords,
  journeyOf,
  showsReviewOpinion,
  STEP,
  type ApplicationStatus,
  type Exam,
  type HistoryActor,
  type MyApplication,
} from '@zhikaoyun/shared';
import { App, Button, Skeleton, Timeline } from 'antd';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ExamTitle } from '../../../../components/ExamTitle';
import { formatDateTime } from '../../../../components/format';
import { GroupTitle } from '../../../../components/GroupTitle';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useApplyStatus, usePosition, useStatusChange } from '../api';
import { DeadlineCountdown } from '../../../../components/DeadlineCountdown';
import { EmptyState } from '../../../../components/plain/Empty';
import { JourneySteps } from '../../../../components/JourneySteps';
import { STATUS_LOOK } from '../../../../components/status-look';
import { useExamList } from '../../../../lib/api/exams-queries';
import { chooseExam } from '../../../../lib/api/exams';
import { useMyApplications } from '../../../../lib/api/applications-queries';
import { useSysStore } from '../../../../lib/store';
import { ConfirmationStep } from '../components/ConfirmationStep';
import { SiteCityCard } from '../components/SiteCityCard';
import { AdmissionTicketCard } from '../../../../components/AdmissionTicketCard';
import { AddToCalendarButton } from '../../../../components/AddToCalendarButton';
import { useAdmissionTicket } from '../../../../lib/api/tickets';
import { ScoreLinkCard } from '../../../../components/ScoreLinkCard';

/** What 报考状态 says of each status; its colour is the status's tone (components/status-look.ts). */
const LOOK: Record<ApplicationStatus, { icon: ReactNode; words: string }> = {
  draft: { icon: <EditFilled aria-hidden />, words: '报名信息尚未提交。请完成填写、选择岗位并确认提交。' },
  submitted: {
    icon: <ClockCircleFilled aria-hidden />,
    words: '已提交，等待资格审查。审核结果会显示在这里，一般在 2 个工作日内完成；审核前如需修改，可先撤回。',
  },
  approved: {
    icon: <CheckCircleFilled aria-hidden />,
    words: '资格审查已通过，报名信息已锁定。请在确认截止前完成报名确认（缴费或申请减免），逾期未确认的报名无效。',
  },
  confirmed: {
    icon: <CheckCircleFilled aria-hidden />,
    words: '报名已确认。请关注通知公告，按时打印准考证并参加考试。',
  },
  expired: {
    icon: <CloseCircleFilled aria-hidden />,
    words: '未在确认截止前完成报名确认，本次报名无效。',
  },
  cancelled: {
    icon: <CloseCircleFilled aria-hidden />,
    words: '报名已取消。已缴纳的报名费将原路退回。',
  },
  rejected: {
    icon: <CloseCircleFilled aria-hidden />,
    words: '资格审查未通过。请按下方审核意见修改报考信息后重新提交（须在报名截止前）。',
  },
  rejectedFinal: {
    icon: <CloseCircleFilled aria-hidden />,
    words: '资格审查不通过，且不得再报：本次考试不能修改、撤回或重新提交报名。',
  },
};

/** Deadlines the confirmation step below shows itself, with the same countdown. */
const OWN_DEADLINES = new Set(['报名确认截止', '改报截止']);

const POSITION_CANCELLED_WORDS = '您报考的岗位因未达到开考比例已取消。请在改报截止前改报其他岗位，或放弃报考（见下方）。';

/** Who moved the application, as the timeline says it. */
const HISTORY_ACTOR: Record<HistoryActor, string> = { candidate: '本人', staff: '审核人员', system: '系统' };

function Status({ exam, mine }: { exam: Exam; mine: MyApplication | null }) {
  const nav = useNavigate();
  // The pages of the application work on the exam in the store: make it this one first.
  const navigate = (path: string) => {
    chooseExam(exam);
    void nav(path);
  };
  const hasPhoto = useSysStore((s) => !!s.userInfo?.photo);
  const { modal } = App.useApp();
  const status = useApplyStatus(exam.id);
  const position = usePosition(status.data?.positionId ?? null);
  const withdraw = useStatusChange('withdraw', exam.id);
  // The ticket card's own query (the same cache entry): whether the ticket, with its 加入日历, shows.
  const sits = status.data?.status ? APPLICATION_STATES[status.data.status].sits : false;
  const ticket = useAdmissionTicket(exam.id, sits);

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
            <Button type="primary" size="large" block onClick={() => void navigate('/application-instructions')}>
              开始报名
            </Button>
          )}
        </div>
      </MobileContainerCard>
    );
  }
  // A confirmed application whose position close-out cancelled: the choice below is what matters now.
  // The position read now decides (我的报名 may be a moment older than a switch just made).
  const positionCancelled =
    APPLICATION_STATES[s.status].sits && (position.data ? position.data.cancelled === true : mine?.positionCancelled === true);
  const journey = mine ? journeyOf(exam, { ...mine, positionCancelled }, hasPhoto) : null;
  const look = positionCancelled
    ? { ...LOOK.confirmed, icon: <ExclamationCircleFilled aria-hidden />, tone: 'rejected', words: POSITION_CANCELLED_WORDS }
    : { ...LOOK[s.status], tone: STATUS_LOOK[s.status].tone };
  // During the print window the ticket is what the candidate comes for: it leads the page.
  const printing =
    APPLICATION_STATES[s.status].sits && !positionCancelled && journey?.step === STEP.ticket && journey.stepStatus === 'process';
  // The confirmation step below shows its own deadline (确认截止, 改报截止): not twice.
  const deadline = journey?.deadline && !OWN_DEADLINES.has(journey.deadline.label) ? journey.deadline : null;
  const words = historyWords(s.history);
  const ticketShown = APPLICATION_STATES[s.status].sits && !positionCancelled && ticket.data?.ticket != null;
  return (
    <div className="current-exam-page">
      <MobileContainerCard>
        {journey && <JourneySteps current={journey.step} status={journey.stepStatus} exam={exam} />}
        <ExamTitle name={exam.name} />
        {printing && <AdmissionTicketCard exam={exam} />}
        <div className={`status-card is-${look.tone}`}>
          <p className="status-card__label">
            <span aria-hidden>{look.icon}</span> {journey?.headline ?? APPLICATION_STATUS_LABEL[s.status]}
          </p>
          {s.applicationNo && (
            <p className="status-card__no">
              报名号：<strong>{s.applicationNo}</strong>
            </p>
          )}
          <p className="status-card__words">{look.words}</p>
          {showsReviewOpinion(s.status) && s.reason && (
            <p className="status-card__reason">
              <strong>审核意见：</strong>
              {s.reason}
            </p>
          )}
          {fromStatesOf('withdraw').includes(s.status) && !s.canWithdraw && (
            <p className="status-card__words">报名已截止，请耐心等待审核结果。</p>
          )}
          {deadline && <DeadlineCountdown deadline={deadline} />}
        </div>
        <ConfirmationStep exam={exam} status={s.status} positionId={s.positionId} applicationNo={s.applicationNo} />
        {APPLICATION_STATES[s.status].seatBound && !positionCancelled && <SiteCityCard examId={exam.id} />}
        {APPLICATION_STATES[s.status].sits && !positionCancelled && !printing && <AdmissionTicketCard exam={exam} />}
        {APPLICATION_STATES[s.status].sits && !positionCancelled && <ScoreLinkCard examId={exam.id} />}
        <p className="status-links">
          <Link to={`/notice-list?examId=${exam.id}`}>
            <NotificationOutlined aria-hidden /> 本次考试公告（招考公告及通知）
          </Link>
        </p>
        {position.data && (
          <p className="status-position">
            报考岗位：{position.data.name}（{position.data.code}），{position.data.unit}
          </p>
        )}
        <div className="status-actions">
          {s.canEdit && (
            <Button type="primary" size="large" block onClick={() => void navigate('/fill-info')}>
              {fromStatesOf('resubmit').includes(s.status) ? '修改并重新提交' : '继续填写'}
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
          {/* The ticket card has its own once the ticket shows: not twice on one page. */}
          {!ticketShown && <AddToCalendarButton exam={exam} />}
        </div>
      </MobileContainerCard>
      <GroupTitle>办理记录</GroupTitle>
      <MobileContainerCard>
        <Timeline
          items={s.history
            .map((h, i) => ({ h, word: words[i] ?? APPLICATION_STATUS_LABEL[h.status] }))
            .reverse()
            .map(({ h, word }) => ({
              // The colour of the status's own look: a step forward green, an end red, the rest blue.
              color: STATUS_LOOK[h.status].tone === 'approved' ? 'green' : STATUS_LOOK[h.status].tone === 'rejected' ? 'red' : 'blue',
              content: (
                <div className="history-item">
                  <span className="history-item__status">
                    {word}（{HISTORY_ACTOR[h.actor]}）
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

/**
 * 报考状态: each of the candidate's own applications, where it stands and what to do next (never
 * "the current exam" in their place: with two exams open, a rejection in either stays in view).
 * The exam chosen in the store comes first, and, not yet applied to, offers to start.
 */
export default function CurrentExamPage() {
  const navigate = useNavigate();
  const chosen = useSysStore((s) => s.exam);
  const mine = useMyApplications();
  const exams = useExamList();
  if (mine.isLoading || exams.isLoading || !mine.data) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 6 }} />
      </MobileContainerCard>
    );
  }
  const list = [...mine.data].sort((a, b) => Number(b.exam.id === chosen?.id) - Number(a.exam.id === chosen?.id));
  const chosenExam = chosen && !list.some((a) => a.exam.id === chosen.id) ? exams.data?.find((e) => e.id === chosen.id) : undefined;
  if (list.length === 0 && !chosenExam) {
    return (
      <EmptyState
        text="您还没有报名任何考试"
        action={
          <Button type="primary" onClick={() => void navigate('/exam-list')}>
            去报名
          </Button>
        }
      />
    );
  }
  return (
    <>
      {chosenExam && <Status exam={chosenExam} mine={null} />}
      {list.map((a) => (
        <Status key={a.id} exam={a.exam} mine={a} />
      ))}
    </>
  );
}

import { CalendarOutlined } from '@ant-design/icons';
import { EXAM_PHASE_LABEL, journeyOf, type Exam, type MyApplication } from '@zhikaoyun/shared';
import { Button, Skeleton } from 'antd';
import { useNavigate } from 'react-router';
import { DeadlineCountdown } from '../../../components/DeadlineCountdown';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime } from '../../../components/format';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { StatusTag } from '../../../components/MyApplicationCard';
import { chooseExam, useExamList } from '../../../lib/exam-api';
import { useMyApplications } from '../../../lib/journey-api';
import { useSysStore } from '../../../lib/store';

/** The primary way on from an exam card: start, go on where the candidate left off, or see the state. */
function primaryAction(exam: Exam, mine: MyApplication | null, hasPhoto: boolean): { label: string; path: string } | null {
  if (mine === null) return exam.phase === 'registering' ? { label: '进入报名', path: '/application-instructions' } : null;
  const journey = journeyOf(exam, mine, hasPhoto);
  if (journey.action && mine.status === 'draft') return { label: '继续报名', path: journey.action.path };
  if (journey.action && mine.status === 'rejected') return { label: '修改并重新提交', path: journey.action.path };
  return { label: '查看报考状态', path: '/current-exam' };
}

function ExamCard({ exam, mine }: { exam: Exam; mine: MyApplication | null }) {
  const navigate = useNavigate();
  const chosen = useSysStore((s) => s.exam?.id === exam.id);
  const hasPhoto = useSysStore((s) => !!s.userInfo?.photo);
  const go = (path: string) => {
    chooseExam(exam);
    void navigate(path);
  };
  const journey = mine ? journeyOf(exam, mine, hasPhoto) : null;
  const action = primaryAction(exam, mine, hasPhoto);
  const deadline =
    journey?.deadline ??
    (exam.phase === 'registering'
      ? { label: '报名截止', at: exam.registrationEnd }
      : exam.phase === 'upcoming'
        ? { label: '报名开始', at: exam.registrationStart }
        : null);
  return (
    <MobileContainerCard className={`exam-card${chosen ? ' is-chosen' : ''}`}>
      <div className="exam-card__head">
        <h2 className="exam-card__name">{exam.name}</h2>
        <span className={`phase-tag is-${exam.phase}`}>{EXAM_PHASE_LABEL[exam.phase]}</span>
      </div>
      {mine && journey && (
        <div className="exam-card__state" role="status" aria-label="我的报名状态">
          <StatusTag status={mine.status} />
          <span>{mine.status === 'rejected' && mine.reason ? `审核意见：${mine.reason}` : journey.next}</span>
        </div>
      )}
      {deadline && <DeadlineCountdown deadline={deadline} />}
      <dl className="exam-card__windows">
        <div>
          <dt>
            <CalendarOutlined aria-hidden /> 报名时间
          </dt>
          <dd>
            {formatDateTime(exam.registrationStart)} 至 {formatDateTime(exam.registrationEnd)}
          </dd>
        </div>
        <div>
          <dt>资格审查</dt>
          <dd>
            {formatDateTime(exam.reviewStart)} 至 {formatDateTime(exam.reviewEnd)}
          </dd>
        </div>
        <div>
          <dt>报名确认</dt>
          <dd>
            {formatDateTime(exam.confirmationStart)} 至 {formatDateTime(exam.confirmationEnd)}
          </dd>
        </div>
      </dl>
      <div className="exam-card__actions">
        {action && (
          <Button type="primary" size="large" onClick={() => go(action.path)}>
            {action.label}
          </Button>
        )}
        <Button size="large" onClick={() => go('/job-positions')}>
          查看岗位
        </Button>
      </div>
      {exam.phase === 'upcoming' && (
        <p className="exam-card__hint">报名将于 {formatDateTime(exam.registrationStart)} 开始，届时可在此进入报名。</p>
      )}
    </MobileContainerCard>
  );
}

/** 当前考试: the office's exams, open ones first, each with the candidate's own state in it. */
export default function ExamListPage() {
  const exams = useExamList();
  const mine = useMyApplications();
  if (exams.isLoading) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 4 }} />
      </MobileContainerCard>
    );
  }
  if (!exams.data?.length) return <EmptyState text="目前没有发布的考试，请关注通知公告。" />;
  return (
    <div className="exam-list">
      {exams.data.map((exam) => (
        <ExamCard key={exam.id} exam={exam} mine={mine.data?.find((a) => a.exam.id === exam.id) ?? null} />
      ))}
    </div>
  );
}

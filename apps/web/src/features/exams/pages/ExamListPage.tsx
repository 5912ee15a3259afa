import { CalendarOutlined } from '@ant-design/icons';
import { EXAM_PHASE_LABEL, type Exam } from '@zhikaoyun/shared';
import { Button, Skeleton } from 'antd';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { formatDateTime } from '../../../components/format';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { chooseExam, useExamList } from '../../../lib/exam-api';
import { useSysStore } from '../../../lib/store';

function ExamCard({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const chosen = useSysStore((s) => s.exam?.id === exam.id);
  const go = (path: string) => {
    chooseExam(exam);
    navigate(path);
  };
  return (
    <MobileContainerCard className={`exam-card${chosen ? ' is-chosen' : ''}`}>
      <div className="exam-card__head">
        <h2 className="exam-card__name">{exam.name}</h2>
        <span className={`phase-tag is-${exam.phase}`}>{EXAM_PHASE_LABEL[exam.phase]}</span>
      </div>
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
        {exam.phase === 'registering' && (
          <Button type="primary" size="large" onClick={() => go('/application-instructions')}>
            进入报名
          </Button>
        )}
        {exam.phase !== 'upcoming' && exam.phase !== 'registering' && (
          <Button size="large" onClick={() => go('/current-exam')}>
            查看报考状态
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

/** 当前考试: the office's exams, open ones first. */
export default function ExamListPage() {
  const exams = useExamList();
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
        <ExamCard key={exam.id} exam={exam} />
      ))}
    </div>
  );
}

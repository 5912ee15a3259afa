import type { Exam } from '@zhikaoyun/shared';
import { useNavigate } from 'react-router';
import { getData } from '../lib/lazy-http';
import { usePublicQuery } from '../lib/public-query';
import { DeadlineCountdown } from './DeadlineCountdown';
import { formatDateTime } from './format';
import { MobileContainerCard } from './MobileContainerCard';
import './journey.css';

/** The home page's current exam: what is open, until when, and the way to its positions. */
export function CurrentExamBanner() {
  const navigate = useNavigate();
  // A guest's page: read without TanStack Query (lib/public-query.ts).
  const current = usePublicQuery(['currentExam'], () => getData<Exam | null>('/api/getCurrentExam'));
  const exam = current.data;
  // Until the exam arrives (the rendered HTML, then hydration) the card keeps its place, so the
  // entries below do not jump when it shows (layout shift).
  if (current.isPending)
    return (
      <MobileContainerCard title="当前考试" className="home-current-exam is-loading">
        <div aria-busy="true" aria-label="当前考试加载中">
          <p className="home-current-exam__name">&nbsp;</p>
          <p className="home-current-exam__window">&nbsp;</p>
          <p className="deadline">&nbsp;</p>
          <div className="home-current-exam__actions home-current-exam__placeholder" />
        </div>
      </MobileContainerCard>
    );
  if (!exam) return null;
  const deadline =
    exam.phase === 'registering'
      ? { label: '报名截止', at: exam.registrationEnd }
      : exam.phase === 'upcoming'
        ? { label: '报名开始', at: exam.registrationStart }
        : null;
  return (
    <MobileContainerCard title="当前考试" className="home-current-exam">
      <p className="home-current-exam__name">{exam.name}</p>
      <p className="home-current-exam__window">
        报名时间：{formatDateTime(exam.registrationStart)} 至 {formatDateTime(exam.registrationEnd)}
      </p>
      {deadline && <DeadlineCountdown deadline={deadline} />}
      <div className="home-current-exam__actions">
        <button type="button" className="zk-btn" onClick={() => void navigate('/job-positions-only-read')}>
          查看招聘岗位
        </button>
      </div>
    </MobileContainerCard>
  );
}

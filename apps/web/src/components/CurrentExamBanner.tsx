import { ClockCircleOutlined } from '@ant-design/icons';
import type { Exam } from '@zhikaoyun/shared';
import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useHydrated } from '../lib/hydrated';
import { usePublicCurrentExam } from '../lib/api/exams';
import { useNow } from '../lib/use-now';
import { DeadlineCountdown } from './DeadlineCountdown';
import { formatDateTime } from './format';
import { MobileContainerCard } from './MobileContainerCard';
import { buttonClass } from './plain/Button';

/**
 * The deadline a candidate is counting down to at `now`: registration's start before it opens
 * ('upcoming'), its end while it is open ('registering'), none after (shared's examPhase, whose
 * module would bring zod into the home page's script).
 */
function deadlineAt(exam: Exam, now: string) {
  if (now < exam.registrationStart) return { label: '报名开始', at: exam.registrationStart };
  if (now <= exam.registrationEnd) return { label: '报名截止', at: exam.registrationEnd };
  return null;
}

/** The countdown, from the exam's windows and the browser's clock. */
function LiveDeadline({ exam }: { exam: Exam }) {
  const deadline = deadlineAt(exam, useNow());
  return deadline && <DeadlineCountdown deadline={deadline} />;
}

/**
 * The card's line that follows the clock. The server's HTML is kept until staff change something,
 * so it (and the browser's first render, which hydrates it) holds the line's place, unseen, when
 * the exam had a deadline as the page was rendered; the countdown is drawn once the page runs,
 * from the browser's clock.
 */
function ExamDeadline({ exam }: { exam: Exam }) {
  const hydrated = useHydrated();
  if (hydrated) return <LiveDeadline exam={exam} />;
  return exam.phase === 'upcoming' || exam.phase === 'registering' ? (
    // The countdown's line as it will be (its icon sets the height), unseen.
    <p className="deadline deadline--pending" aria-hidden="true">
      <ClockCircleOutlined aria-hidden /> &nbsp;
    </p>
  ) : null;
}

/** The home page's current exam: what is open, until when, and the way to its positions. */
export function CurrentExamBanner() {
  const navigate = useNavigate();
  // A guest's page: read without TanStack Query (lib/public-query.ts); the server renders the
  // page with it (entry-server.tsx), so the card is in the HTML.
  const current = usePublicCurrentExam();
  const exam = current.data;
  // Until the exam arrives (when the server could not read it) the card keeps its place, so the
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
  const toPositions = (e: MouseEvent) => {
    e.preventDefault();
    void navigate('/job-positions-only-read');
  };
  return (
    <MobileContainerCard title="当前考试" className="home-current-exam">
      <p className="home-current-exam__name">{exam.name}</p>
      <p className="home-current-exam__window">
        报名时间：{formatDateTime(exam.registrationStart)} 至 {formatDateTime(exam.registrationEnd)}
      </p>
      <ExamDeadline exam={exam} />
      <div className="home-current-exam__actions">
        {/* A link (with the router's navigation once the script runs): it works from the HTML alone. */}
        <a className={buttonClass()} href="/job-positions-only-read" onClick={toPositions}>
          <span>查看招聘岗位</span>
        </a>
      </div>
    </MobileContainerCard>
  );
}

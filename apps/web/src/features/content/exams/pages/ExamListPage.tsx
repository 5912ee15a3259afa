import { CalendarOutlined, ClockCircleOutlined } from '@ant-design/icons';
import {
  APPLICATION_STATES,
  EXAM_PHASE_LABEL,
  fromStatesOf,
  journeyOf,
  showsReviewOpinion,
  type Exam,
  type Journey,
  type MyApplication,
} from '@zhikaoyun/shared';
import { startTransition, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { DeadlineCountdown } from '../../../../components/DeadlineCountdown';
import { EmptyState } from '../../../../components/plain/Empty';
import { formatDateTime } from '../../../../components/format';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { Button } from '../../../../components/plain/Button';
import { Skeleton } from '../../../../components/plain/Skeleton';
import { JourneyHeadline, StatusTag } from '../../../../components/StatusTag';
import { useHydrated } from '../../../../lib/hydrated';
import { fetchMyApplications } from '../../../../lib/api/applications';
import { chooseExam, usePublicExamList } from '../../../../lib/api/exams';
import { useSysStore } from '../../../../lib/store';

// The page the guard sends a candidate to after logging in, so it is built like the public pages
// (no antd runtime, no TanStack Query: plain buttons, lib/public-query.ts for the exams) and its
// first load is small: it arrives rendered (entry-server.tsx) and hydrates quickly on a slow phone.

/** The primary way on from an exam card: start, go on where the candidate left off, or see the state. */
function primaryAction(exam: Exam, mine: MyApplication | null, hasPhoto: boolean): { label: string; path: string } | null {
  if (mine === null) return exam.phase === 'registering' ? { label: '进入报名', path: '/application-instructions' } : null;
  const journey = journeyOf(exam, mine, hasPhoto);
  // Something needs the candidate now (a cancelled post, a ticket to print): its own way there.
  if (journey.headline && journey.action) return journey.action;
  if (journey.action && fromStatesOf('submit').includes(mine.status)) return { label: '继续报名', path: journey.action.path };
  if (journey.action && fromStatesOf('resubmit').includes(mine.status)) return { label: '修改并重新提交', path: journey.action.path };
  return { label: '查看报考状态', path: '/current-exam' };
}

/** What a card says to a candidate who has not applied to its exam. */
const NOT_APPLIED_HINT: Readonly<Record<Exam['phase'], string>> = {
  upcoming: '报名开始后可进入报名',
  registering: '报名进行中，可进入报名',
  reviewing: '本次考试报名已结束',
  confirming: '本次考试报名已结束',
  closed: '本次考试报名已结束',
};

/**
 * The candidate's own state in a card, always one line: their application's status and next step,
 * or 未报名. Until their applications are known (the server's HTML, which knows no one) the line
 * keeps its place unseen, so nothing below it moves when it is filled in.
 */
function ExamCardState({
  exam,
  mine,
  journey,
}: {
  exam: Exam;
  mine: MyApplication | null | undefined;
  journey: Pick<Journey, 'next' | 'headline' | 'stepStatus'> | null;
}) {
  if (mine === undefined)
    return (
      <div className="exam-card__state is-pending" aria-hidden="true">
        <span className="app-status-tag">&nbsp;</span>
      </div>
    );
  return (
    <div className="exam-card__state" role="status" aria-label="我的报名状态">
      {journey?.headline ? (
        // What needs the candidate now takes the status tag's place (a cancelled post is still 已确认).
        <JourneyHeadline text={journey.headline} urgent={journey.stepStatus === 'error'} />
      ) : (
        <>
          {mine ? <StatusTag status={mine.status} /> : <span className="app-status-tag">未报名</span>}
          <span>
            {mine
              ? showsReviewOpinion(mine.status) && mine.reason
                ? `审核意见：${mine.reason}`
                : journey?.next
              : NOT_APPLIED_HINT[exam.phase]}
          </span>
        </>
      )}
    </div>
  );
}

/** The exam's deadline before the candidate's state is known: the phase's own. */
function phaseDeadline(exam: Exam) {
  if (exam.phase === 'registering') return { label: '报名截止', at: exam.registrationEnd };
  if (exam.phase === 'upcoming') return { label: '报名开始', at: exam.registrationStart };
  return null;
}

/**
 * One exam. `mine` is the candidate's application to it, null for none, undefined while not yet
 * known: the card is then drawn as the server rendered it (the exam alone), with the candidate's
 * line and the countdown (which follows the browser's clock) holding their places.
 */
function ExamCard({ exam, mine }: { exam: Exam; mine: MyApplication | null | undefined }) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const chosen = useSysStore((s) => s.exam?.id === exam.id);
  const hasPhoto = useSysStore((s) => !!s.userInfo?.photo);
  const known = mine !== undefined;
  const go = (path: string) => {
    chooseExam(exam);
    void navigate(path);
  };
  const journey = mine ? journeyOf(exam, mine, hasPhoto) : null;
  const action = primaryAction(exam, mine ?? null, hasPhoto);
  // A final rejection ends the candidate's part: no registration countdown for them.
  const deadline = journey?.deadline ?? (mine && APPLICATION_STATES[mine.status].final ? null : phaseDeadline(exam));
  return (
    <MobileContainerCard className={`exam-card${chosen ? ' is-chosen' : ''}`}>
      <div className="exam-card__head">
        <h2 className="exam-card__name">{exam.name}</h2>
        <span className={`phase-tag is-${exam.phase}`}>{EXAM_PHASE_LABEL[exam.phase]}</span>
      </div>
      <ExamCardState exam={exam} mine={mine} journey={journey} />
      {mine?.applicationNo && <p className="exam-card__no">报名号：{mine.applicationNo}</p>}
      {deadline &&
        (hydrated ? (
          <DeadlineCountdown deadline={deadline} />
        ) : (
          // The countdown's line as it will be (its icon sets the height), unseen until the page runs.
          <p className="deadline deadline--pending" aria-hidden="true">
            <ClockCircleOutlined aria-hidden /> &nbsp;
          </p>
        ))}
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
          <Button
            primary
            large
            // Which way on depends on the candidate's application: usable once it is known.
            aria-disabled={!known}
            onClick={() => known && go(action.path)}
          >
            <span>{action.label}</span>
          </Button>
        )}
        <Button large aria-disabled={!hydrated} onClick={() => go('/job-positions')}>
          <span>查看岗位</span>
        </Button>
      </div>
      {exam.phase === 'upcoming' && (
        <p className="exam-card__hint">报名将于 {formatDateTime(exam.registrationStart)} 开始，届时可在此进入报名。</p>
      )}
    </MobileContainerCard>
  );
}

/**
 * The candidate's own applications, read afresh on every visit once the page runs in the browser
 * (never in the server's HTML, which knows no one); undefined until they arrive. Not cached: they
 * are one person's, and the page shows them as they are now. Hence an effect rather than a query:
 * this page is built without TanStack Query (its JavaScript budget), and the public pages' cache
 * (lib/public-query.ts) outlives a sign-out, which one person's applications must not.
 */
function useOwnApplications(enabled: boolean): MyApplication[] | undefined {
  const [applications, setApplications] = useState<MyApplication[]>();
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    // A failure is shown by the client (an ended session goes to login); the cards keep waiting.
    // Filled in as a transition: the cards re-render in slices, not in one long task.
    fetchMyApplications().then(
      (list) => live && startTransition(() => setApplications(list)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return enabled ? applications : undefined;
}

/**
 * 当前考试: the office's exams, open ones first, each with the candidate's own state in it. The
 * server renders the exams (public) into the HTML (entry-server.tsx); the candidate's
 * applications are read once the page runs in the browser, and fill in each card's reserved line.
 */
export default function ExamListPage() {
  const exams = usePublicExamList();
  const hydrated = useHydrated();
  const applications = useOwnApplications(hydrated);
  if (exams.isPending) {
    return (
      <MobileContainerCard>
        <Skeleton rows={4} />
      </MobileContainerCard>
    );
  }
  if (!exams.data?.length) return <EmptyState text="目前没有发布的考试，请关注通知公告。" />;
  return (
    <div className="exam-list">
      {exams.data.map((exam) => (
        <ExamCard
          key={exam.id}
          exam={exam}
          mine={applications === undefined ? undefined : (applications.find((a) => a.exam.id === exam.id) ?? null)}
        />
      ))}
    </div>
  );
}

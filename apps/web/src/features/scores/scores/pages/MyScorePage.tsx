import { APPLICATION_STATES, SCORE_MARK_TEXT, formatPoints, type MyScore } from '@zhikaoyun/shared';
import { Button, Skeleton, Tag } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../../../components/plain/Empty';
import { InfoRows } from '../../../../components/InfoRows';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useMyApplications } from '../../../../lib/api/applications-queries';
import { useMyStages } from '../../../../lib/api/stages';
import { useMyScore } from '../../../../lib/api/scores';
import { ScoreReviewCard } from './ScoreReviewCard';
import '../scores.css';

const examIdOf = (text: string | null) => (text !== null && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined);

/** What the candidate's result means for them, in one tag. */
function outcome(s: MyScore): { text: string; tone: 'go' | 'stop' | 'void' | 'none' } {
  const mark = s.subjects.find((x) => x.mark !== 'score')?.mark;
  if (mark === 'void') return { text: '违纪', tone: 'void' };
  if (mark === 'absent') return { text: '缺考', tone: 'none' };
  if (s.nextStage) return { text: '进入面试', tone: 'go' };
  return { text: s.qualified ? '合格，未进入面试' : '未达合格分数线', tone: 'stop' };
}

function ScoreCard({ score, examId }: { score: MyScore; examId: number }) {
  const o = outcome(score);
  return (
    <>
      <MobileContainerCard title={score.examName} className="score-card">
        <div className="score-total">
          <div className="score-total__main">
            <span className="score-total__label">总成绩</span>
            <strong className="score-total__value" data-testid="score-total">
              {score.total === null ? '—' : formatPoints(score.total)}
            </strong>
          </div>
          <div className="score-total__rank">
            <span className="score-total__label">岗位排名</span>
            <strong data-testid="score-rank">{score.rank === null ? '不参与排名' : `第 ${score.rank} 名`}</strong>
            <span className="score-total__of">共 {score.ranked} 人</span>
          </div>
        </div>
        <div className="score-outcome">
          <span className={`score-outcome__badge is-${o.tone}`}>{o.text}</span>
        </div>
        <InfoRows
          rows={[
            { label: '准考证号', value: score.ticketNo },
            { label: '报考岗位', value: score.positionName },
            // The office published without a line (it was warned): 「0」 would read as a line of zero points.
            { label: '合格分数线', value: score.passLine > 0 ? formatPoints(score.passLine) : '未设置' },
          ]}
        />
      </MobileContainerCard>
      <MobileContainerCard title="各科成绩" className="score-card">
        <InfoRows
          rows={[
            ...score.subjects.map((s) => ({
              label: s.name,
              value: s.mark === 'score' ? formatPoints(s.score) : <Tag>{SCORE_MARK_TEXT[s.mark]}</Tag>,
            })),
            ...(score.bonus > 0 ? [{ label: '加分', value: formatPoints(score.bonus) }] : []),
          ]}
        />
      </MobileContainerCard>
      <ScoreReviewCard score={score} examId={examId} />
      <MyStagesCard examId={examId} />
      <Link className="score-link" to={`/interview-list?examId=${examId}`}>
        查看面试名单公示
      </Link>
    </>
  );
}

/** The later stages published so far: 资格复审, 面试 with the combined score and rank, 体检, 拟录用. */
function MyStagesCard({ examId }: { examId: number }) {
  const stages = useMyStages(examId);
  if (!stages.data || stages.data.length === 0) return null;
  return (
    <MobileContainerCard title="后续环节" className="score-card">
      <InfoRows
        rows={stages.data.map((s) => ({
          label: s.label,
          value: (
            <span data-testid={`stage-${s.stage}`}>
              {s.combined === null
                ? s.result
                : `面试 ${formatPoints(s.interview)}，综合成绩 ${formatPoints(s.combined)}${s.rank === null ? '' : `，岗位第 ${s.rank} 名`}`}
            </span>
          ),
        }))}
      />
    </MobileContainerCard>
  );
}

/** 成绩查询: the candidate's own written-exam score, rank in the position and whether they go on. */
export default function MyScorePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const asked = examIdOf(params.get('examId'));
  const mine = useMyApplications(asked === undefined);
  // Without an exam in the address: the exam of the candidate's one confirmed application.
  const confirmed = (mine.data ?? []).filter((a) => APPLICATION_STATES[a.status].sits);
  const examId = asked ?? (confirmed.length === 1 ? confirmed[0]!.exam.id : undefined);
  const score = useMyScore(examId);

  if (examId === undefined) {
    if (mine.isPending)
      return (
        <MobileContainerCard>
          <Skeleton active paragraph={{ rows: 4 }} />
        </MobileContainerCard>
      );
    if (confirmed.length === 0)
      return (
        <MobileContainerCard title="成绩查询">
          <EmptyState text="您没有已确认报名的考试，暂无成绩可查" />
        </MobileContainerCard>
      );
    return (
      <MobileContainerCard title="选择考试">
        <ul className="score-exams">
          {confirmed.map((a) => (
            <li key={a.id}>
              <Button block onClick={() => void navigate(`/scores?examId=${a.exam.id}`)}>
                {a.exam.name}
              </Button>
            </li>
          ))}
        </ul>
      </MobileContainerCard>
    );
  }

  if (score.isPending)
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 6 }} />
      </MobileContainerCard>
    );
  if (score.isError)
    return (
      <MobileContainerCard title="成绩查询">
        <EmptyState text={score.error.message} />
      </MobileContainerCard>
    );
  return <ScoreCard score={score.data} examId={examId} />;
}

import { TrophyOutlined } from '@ant-design/icons';
import { formatPoints } from '@zhikaoyun/shared';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { useMyScore } from '../lib/api/scores';
import './score-link-card.css';

/**
 * 成绩查询 on the status page of a confirmed application, once the candidate's score can be read
 * (published and past the query start): the total and rank at a glance, and the way to the page.
 * Before that it shows nothing (the page's other cards say what comes next).
 */
export function ScoreLinkCard({ examId }: { examId: number }) {
  const navigate = useNavigate();
  const score = useMyScore(examId);
  if (!score.data) return null;
  const s = score.data;
  return (
    <section className="score-link-card" aria-label="成绩查询">
      <h3 className="score-link-card__title">
        <TrophyOutlined aria-hidden /> 成绩已发布
      </h3>
      <p className="score-link-card__text">
        总成绩 {formatPoints(s.total)}
        {s.rank !== null ? `，岗位排名第 ${s.rank} 名（共 ${s.ranked} 人）` : ''}
      </p>
      <Button type="primary" block onClick={() => void navigate(`/scores?examId=${examId}`)}>
        查看成绩
      </Button>
    </section>
  );
}

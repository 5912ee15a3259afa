import { CheckCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import type { Position } from '@zhikaoyun/shared';
import type { ReactNode } from 'react';

/** The requirements of a position as short plain lines. */
export function requirementLines(p: Position): string[] {
  const r = p.requirements;
  return [
    `学历：${r.minEducation ? `${r.minEducation}及以上` : '不限'}`,
    `专业：${r.majors.length ? r.majors.join('、') : '不限'}`,
    `年龄：${r.maxAge ? `${r.maxAge}周岁以下` : '不限'}`,
    ...(r.sex !== '不限' ? [`性别：${r.sex}`] : []),
    ...(r.politicalStatus !== '不限' ? ['政治面貌：中共党员（含预备党员）'] : []),
    ...(r.workYears > 0 ? [`工作经历：${r.workYears}年以上`] : []),
    ...(r.note ? [`其他：${r.note}`] : []),
  ];
}

export function PositionCard({ position: p, action }: { position: Position; action?: ReactNode }) {
  return (
    <article className="mobile-card position-card" aria-label={`${p.name}（${p.code}）`}>
      <header className="position-card__head">
        <div>
          <h3 className="position-card__name">{p.name}</h3>
          <p className="position-card__unit">{p.unit}</p>
        </div>
        <span className="position-card__code">{p.code}</span>
      </header>
      <div className="position-card__numbers">
        <span>
          招聘 <strong>{p.headcount}</strong> 人
        </span>
        <span>
          已报名 <strong>{p.applicants}</strong> 人
        </span>
      </div>
      {p.cancelled && (
        <p className="position-card__eligible is-no">
          <ExclamationCircleFilled aria-hidden /> 该岗位因未达到开考比例已取消
        </p>
      )}
      <ul className="position-card__requirements">
        {requirementLines(p).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {p.eligible === true && (
        <p className="position-card__eligible is-ok">
          <CheckCircleFilled aria-hidden /> 您符合该岗位的报考条件
        </p>
      )}
      {p.eligible === false && (
        <div className="position-card__eligible is-no">
          <p>
            <ExclamationCircleFilled aria-hidden /> 暂不符合报考条件：
          </p>
          <ul>
            {p.reasons?.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </div>
      )}
      {action && !p.cancelled && <div className="position-card__action">{action}</div>}
    </article>
  );
}

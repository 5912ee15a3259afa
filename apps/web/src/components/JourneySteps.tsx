import { journeyStepTitles, type Exam, type Journey } from '@zhikaoyun/shared';
import { Steps } from 'antd';

/**
 * Where the candidate is on the way through an exam: 须知 → 信息 → 岗位 → 核对 → 审核 → 缴费 →
 * 准考证 → 成绩 (缴费 reads 确认 for an exam without a fee). `current` is the step's index;
 * `status` how it stands (an error for a refusal).
 */
export function JourneySteps({
  current,
  status = 'process',
  exam,
}: {
  current: number;
  status?: Journey['stepStatus'];
  exam: Pick<Exam, 'fee'>;
}) {
  const titles = journeyStepTitles(exam);
  return (
    <nav className="journey-steps" aria-label={`报名进度：第 ${current + 1} 步，共 ${titles.length} 步，${titles[current] ?? ''}`}>
      {/* The nav's label says it all to a screen reader (step, count, name); the bar itself is
          pictures of it, whose icons antd names in English ("check"). */}
      <div aria-hidden="true">
        <Steps
          size="small"
          responsive={false}
          titlePlacement="vertical"
          current={current}
          status={status}
          items={titles.map((title) => ({ title }))}
        />
      </div>
    </nav>
  );
}

import { JOURNEY_STEPS, type Journey } from '@zhikaoyun/shared';
import { Steps } from 'antd';

/**
 * Where the candidate is on the way through an application: 须知 → 信息 → 岗位 → 确认 → 审核.
 * `current` is the step's index; `status` how it stands (an error for a refusal).
 */
export function JourneySteps({ current, status = 'process' }: { current: number; status?: Journey['stepStatus'] }) {
  return (
    <nav
      className="journey-steps"
      aria-label={`报名进度：第 ${current + 1} 步，共 ${JOURNEY_STEPS.length} 步，${JOURNEY_STEPS[current] ?? ''}`}
    >
      <Steps
        size="small"
        responsive={false}
        titlePlacement="vertical"
        current={current}
        status={status}
        items={JOURNEY_STEPS.map((title) => ({ title }))}
      />
    </nav>
  );
}

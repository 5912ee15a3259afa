import { OPENING_ACTION_LABEL, OPENING_ACTIONS, type OpeningAction, type OpeningCheckItem } from '@zhikaoyun/shared';
import { Alert, App, Button, InputNumber, Select, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { formatDateTime } from '../../../../components/format';
import { useApplyOpeningCheck, useOpeningCheck } from './api';

type Decision = { action: OpeningAction; headcount: number };

const TAG_COLOR: Record<OpeningAction, string> = { keep: 'green', reduce: 'orange', cancel: 'red' };

/**
 * 开考核定: confirmed candidates per position against the opening ratio, with what the ratio
 * proposes; staff decide, applied in one transaction. Only after the confirmation deadline (the
 * counts are final then) and, for cancellations, before the switch window ends.
 */
export default function CloseoutPage() {
  const { message, modal } = App.useApp();
  const { examId, exams, chooseExam } = useExamParam();
  const check = useOpeningCheck(examId);
  const apply = useApplyOpeningCheck();
  const [decisions, setDecisions] = useState<Record<number, Decision>>({});
  useEffect(() => {
    const next: Record<number, Decision> = {};
    for (const p of check.data?.positions ?? []) next[p.positionId] = { action: p.proposal, headcount: p.proposedHeadcount };
    setDecisions(next);
  }, [check.data]);

  const exam = exams.data?.find((e) => e.id === examId);
  const now = new Date().toISOString();
  const beforeDeadline = exam !== undefined && now <= exam.confirmationEnd;
  const switchOver = check.data?.switchEnd != null && now > check.data.switchEnd;
  const positions = check.data?.positions ?? [];
  const open = positions.filter((p) => !p.cancelled);
  const proposed = (a: OpeningAction) => open.filter((p) => p.proposal === a).length;

  const set = (id: number, d: Partial<Decision>) => setDecisions((all) => ({ ...all, [id]: { ...all[id]!, ...d } }));
  const changes = open
    .filter((p) => decisions[p.positionId] && decisions[p.positionId]!.action !== 'keep')
    .map((p) => ({ position: p, decision: { positionId: p.positionId, ...decisions[p.positionId]! } }));
  const reducing = changes.filter((c) => c.decision.action === 'reduce');
  const cancelling = changes.filter((c) => c.decision.action === 'cancel');

  const applyLabel = `确定${[
    ...(reducing.length > 0 ? [`核减 ${reducing.length} 个`] : []),
    ...(cancelling.length > 0 ? [`取消 ${cancelling.length} 个`] : []),
  ].join('、')}岗位`;

  const confirmApply = () =>
    modal.confirm({
      title: '核定开考岗位',
      width: 520,
      content: (
        <div>
          <p>
            将核减 {reducing.length} 个岗位、取消 {cancelling.length} 个岗位，其余岗位正常开考。
          </p>
          {reducing.length > 0 && (
            <p>
              核减：
              {reducing.map((c) => `${c.position.name}（${c.position.headcount} 人 → ${c.decision.headcount} 人）`).join('；')}
            </p>
          )}
          {cancelling.length > 0 && (
            <p>
              取消：{cancelling.map((c) => `${c.position.name}（已确认 ${c.position.confirmed} 人）`).join('；')}
              。这些考生将收到通知，可在改报期内改报其他岗位或放弃并退费，逾期未选择的自动退费。取消后不能恢复。
            </p>
          )}
        </div>
      ),
      // 「取消」 here would read as "cancel the positions": the buttons say what they do.
      okText: applyLabel,
      cancelText: '返回',
      onOk: () =>
        apply
          .mutateAsync({ examId: examId!, decisions: changes.map((c) => c.decision) })
          .then((r) => void message.success(`已核定：核减 ${r.reduced} 个，取消 ${r.cancelled} 个`))
          .catch(() => undefined),
    });

  return (
    <div>
      <div className="console-toolbar">
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <Button
          type="primary"
          disabled={examId === undefined || changes.length === 0 || beforeDeadline}
          loading={apply.isPending}
          onClick={confirmApply}
        >
          应用核定结果
        </Button>
      </div>
      {check.data && (
        <Alert
          className="console-card"
          type="info"
          showIcon
          title={`开考比例 ${check.data.openingRatio > 0 ? `${check.data.openingRatio}:1` : '未设置（不核查）'}；改报时间 ${
            check.data.switchStart && check.data.switchEnd
              ? `${formatDateTime(check.data.switchStart)} 至 ${formatDateTime(check.data.switchEnd)}`
              : '未设置（取消岗位前须在考试设置中填写）'
          }`}
          description={
            positions.length === 0
              ? '该考试还没有岗位。'
              : `共 ${positions.length} 个岗位，已确认 ${positions.reduce((n, p) => n + p.confirmed, 0)} 人。建议正常开考 ${proposed('keep')} 个、核减计划 ${proposed('reduce')} 个、取消 ${proposed('cancel')} 个${
                  positions.length > open.length ? `；已取消 ${positions.length - open.length} 个` : ''
                }。`
          }
        />
      )}
      {beforeDeadline && exam && (
        <Alert
          className="console-card"
          type="warning"
          showIcon
          title={`报名确认 ${formatDateTime(exam.confirmationEnd)} 截止，截止后才能核定`}
          description="确认期内已确认人数还会变化，下表为目前的人数和按开考比例得出的建议，仅供预览。"
        />
      )}
      {switchOver && <Alert className="console-card" type="warning" showIcon title="改报期已结束，不能再取消岗位；仍可核减计划人数。" />}
      <Table
        className="console-card"
        rowKey="positionId"
        size="small"
        loading={check.isLoading}
        dataSource={positions}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: '岗位代码', dataIndex: 'code' },
          { title: '岗位名称', dataIndex: 'name' },
          { title: '单位', dataIndex: 'unit' },
          { title: '计划人数', dataIndex: 'headcount' },
          { title: '已确认', dataIndex: 'confirmed' },
          {
            title: '建议',
            render: (_: unknown, p: OpeningCheckItem) =>
              p.cancelled ? <Tag>已取消</Tag> : <Tag color={TAG_COLOR[p.proposal]}>{OPENING_ACTION_LABEL[p.proposal]}</Tag>,
          },
          {
            title: '决定',
            render: (_: unknown, p: OpeningCheckItem) =>
              p.cancelled ? (
                // Those still confirmed on it have neither switched nor given up yet.
                <Typography.Text type="secondary">
                  {p.confirmed > 0 ? `${p.confirmed} 人待改报或退费` : '考生均已改报或退费'}
                </Typography.Text>
              ) : (
                <Select
                  size="small"
                  style={{ width: 110 }}
                  value={decisions[p.positionId]?.action}
                  aria-label={`${p.name}的决定`}
                  onChange={(action) =>
                    set(p.positionId, { action, headcount: action === 'reduce' ? Math.max(1, p.proposedHeadcount) : p.headcount })
                  }
                  options={OPENING_ACTIONS.map((a) => ({
                    value: a,
                    label: OPENING_ACTION_LABEL[a],
                    disabled: (a === 'reduce' && p.headcount <= 1) || (a === 'cancel' && switchOver),
                  }))}
                />
              ),
          },
          {
            title: '核定人数',
            render: (_: unknown, p: OpeningCheckItem) => {
              const d = decisions[p.positionId];
              if (p.cancelled || d?.action === 'cancel') return 0;
              if (d?.action !== 'reduce') return p.headcount;
              return (
                <InputNumber
                  size="small"
                  min={1}
                  max={p.headcount - 1}
                  value={d.headcount}
                  onChange={(v) => set(p.positionId, { headcount: v ?? 1 })}
                  aria-label={`${p.name}的核定人数`}
                />
              );
            },
          },
        ]}
      />
    </div>
  );
}

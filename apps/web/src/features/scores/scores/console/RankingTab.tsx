import { SCORE_MARK_TEXT, availableLaterEvents, formatPoints, type ScorePositionSummary, type ScoreRankingRow } from '@zhikaoyun/shared';
import { Alert, App, Button, Empty, Popconfirm, Space, Table, Tag } from 'antd';
import { useStaffSession } from '../../../../lib/staff-session';
import { useFillVacancy, useRecordGiveUp, useScoreRanking } from './api';

function markText(row: ScoreRankingRow, subjectId: number) {
  const m = row.subjects.find((s) => s.subjectId === subjectId);
  if (!m) return '';
  return m.mark === 'score' ? formatPoints(m.score) : SCORE_MARK_TEXT[m.mark];
}

/** The ranking: every position's figures (short ones flagged), then the chosen position's list. */
export function RankingTab({
  examId,
  positionId,
  choose,
}: {
  examId: number;
  positionId: number | undefined;
  choose: (id: number) => void;
}) {
  const { message } = App.useApp();
  const ranking = useScoreRanking(examId, positionId);
  const giveUp = useRecordGiveUp();
  const fill = useFillVacancy();
  const role = useStaffSession((s) => s.staff?.role);
  // 记录放弃 where the machine after confirmation allows it: on the list, before a 资格复审 or interview result ends the way.
  const mayLeave = (r: ScoreRankingRow) => !!role && availableLaterEvents(r.laterStatus, role).includes('leaveList');
  const positions = ranking.data?.positions ?? [];
  const short = positions.filter((p) => p.short && p.ranked > 0);
  const chosen = positions.find((p) => p.positionId === positionId);
  return (
    <div>
      {short.length > 0 && (
        <Alert
          className="scores-alert"
          type="warning"
          showIcon
          message={`${short.length} 个岗位合格人数不足面试比例`}
          description={`${short.map((p) => `${p.code} ${p.name}（合格 ${p.qualified} 人，需 ${p.need} 人）`).join('；')}。这些岗位的合格考生全部进入面试，可视情况调整比例或合格线。`}
        />
      )}
      <Table<ScorePositionSummary>
        rowKey="positionId"
        size="small"
        loading={ranking.isLoading}
        dataSource={positions}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        rowClassName={(p) => (p.positionId === positionId ? 'is-chosen' : '')}
        onRow={(p) => ({ onClick: () => choose(p.positionId) })}
        columns={[
          { title: '岗位代码', dataIndex: 'code', width: 100 },
          { title: '岗位名称', dataIndex: 'name' },
          { title: '招聘人数', dataIndex: 'headcount', width: 90 },
          {
            title: '面试名额',
            width: 110,
            render: (_: unknown, p) => (p.cancelled ? <Tag>岗位已取消</Tag> : p.need),
          },
          { title: '参加排名', dataIndex: 'ranked', width: 90 },
          { title: '合格', dataIndex: 'qualified', width: 70 },
          { title: '进入面试', dataIndex: 'inList', width: 90 },
          { title: '最低分', render: (_: unknown, p) => formatPoints(p.cutOff), width: 90 },
          {
            title: '',
            width: 150,
            render: (_: unknown, p) => (
              <Space size={4}>
                {p.short && p.ranked > 0 && <Tag color="orange">不足比例</Tag>}
                <Button type="link" size="small" onClick={() => choose(p.positionId)}>
                  查看排名
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {chosen && (
        <div className="console-card">
          <div className="console-toolbar">
            <h3 className="scores-position-title">
              {chosen.code} {chosen.name}：{chosen.ranked} 人参加排名，{chosen.inList} 人进入面试
              {chosen.gaveUp > 0 ? `，${chosen.gaveUp} 人放弃` : ''}
            </h3>
            {chosen.vacancies > 0 && (
              <Button
                type="primary"
                loading={fill.isPending}
                onClick={() =>
                  void fill
                    .mutateAsync({ examId, positionId: chosen.positionId })
                    .then((r) => void message.success(`已递补：${r.added.join('、')}`))
                    .catch(() => undefined)
                }
              >
                递补 {chosen.vacancies} 个名额
              </Button>
            )}
          </div>
          <Table<ScoreRankingRow>
            rowKey="ticketNo"
            size="small"
            loading={ranking.isFetching}
            dataSource={ranking.data?.list}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: '排名', dataIndex: 'rank', width: 70, render: (r: number | null) => r ?? '—' },
              { title: '准考证号', dataIndex: 'ticketNo', width: 130 },
              { title: '姓名', dataIndex: 'name', width: 100 },
              ...(ranking.data?.subjects ?? []).map((s) => ({
                title: s.name,
                key: `s${s.subjectId}`,
                width: 120,
                render: (_: unknown, r: ScoreRankingRow) => markText(r, s.subjectId),
              })),
              { title: '加分', dataIndex: 'bonus', width: 70, render: (b: number) => (b > 0 ? formatPoints(b) : '') },
              { title: '总成绩', dataIndex: 'total', width: 90, render: (t: number | null) => formatPoints(t) },
              {
                title: '结果',
                width: 120,
                render: (_: unknown, r: ScoreRankingRow) =>
                  r.status !== 'score' ? (
                    <Tag>{SCORE_MARK_TEXT[r.status]}</Tag>
                  ) : r.gaveUp ? (
                    <Tag color="default">放弃</Tag>
                  ) : r.inList ? (
                    <Tag color="green">{r.filled ? '递补进入面试' : '进入面试'}</Tag>
                  ) : r.qualified ? (
                    <Tag color="blue">合格</Tag>
                  ) : (
                    <Tag>未达合格线</Tag>
                  ),
              },
              {
                title: '操作',
                width: 110,
                render: (_: unknown, r: ScoreRankingRow) =>
                  mayLeave(r) ? (
                    <Popconfirm
                      title="记录该考生放弃面试？"
                      description="记录后其名额可由后续考生递补。"
                      okText="记录放弃"
                      cancelText="取消"
                      onConfirm={() =>
                        giveUp
                          .mutateAsync({ examId, ticketNo: r.ticketNo })
                          .then(() => void message.success(`已记录 ${r.name} 放弃面试`))
                          .catch(() => undefined)
                      }
                    >
                      <Button type="link" size="small">
                        记录放弃
                      </Button>
                    </Popconfirm>
                  ) : null,
              },
            ]}
          />
        </div>
      )}
      {!ranking.isLoading && positions.every((p) => p.ranked === 0) && <Empty description="尚未导入成绩" />}
    </div>
  );
}

import type { ArrangementOverview } from '@zhikaoyun/shared';
import { Descriptions, Tag } from 'antd';
import { formatDateTime } from '../../../../components/format';

/** The arrangement at a glance: who is confirmed and seated, the seats, the seed, the tickets. */
export function ArrangementSummary({ o }: { o: ArrangementOverview }) {
  const published = o.ticketsPublishedAt != null;
  return (
    <Descriptions
      size="small"
      bordered
      column={4}
      style={{ marginBottom: 16, background: '#fff' }}
      items={[
        { key: 'confirmed', label: '已确认考生', children: `${o.confirmed} 人` },
        {
          key: 'seated',
          label: '已编排',
          children: (
            <span>
              {o.seated} 人
              {o.awaitingSwitch > 0 && (
                <Tag color="orange" style={{ marginInlineStart: 8 }}>
                  {o.awaitingSwitch} 人岗位已取消待改报
                </Tag>
              )}
            </span>
          ),
        },
        {
          key: 'seats',
          label: '座位',
          children: `${o.sites.reduce((n, s) => n + s.seats, 0)} 座（${o.sites.reduce((n, s) => n + s.rooms.length, 0)} 个考场）`,
        },
        { key: 'seed', label: '编排种子', children: o.seed ?? '未编排' },
        {
          key: 'tickets',
          label: '准考证',
          span: 2,
          children: published ? (
            <span>
              <Tag color="green">已发布</Tag>打印时间 {formatDateTime(o.printStart!)} 至 {formatDateTime(o.printEnd!)}
            </span>
          ) : (
            <Tag>未发布</Tag>
          ),
        },
        {
          key: 'template',
          label: '准考证号',
          span: 2,
          children: `考试代码 ${o.examCode}，模板 ${o.ticketTemplate}（在考试管理中修改）`,
        },
      ]}
    />
  );
}

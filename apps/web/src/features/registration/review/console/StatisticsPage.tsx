import { Card, Col, Row, Statistic, Table } from 'antd';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { useStatistics } from './api';

/**
 * 报名统计: live counts per exam and position (applied, approved and confirmed apart), competition
 * ratio, submissions per day; the exam is `?examId=`.
 */
export default function StatisticsPage() {
  const { examId, exams, chooseExam } = useExamParam();
  const stats = useStatistics(examId);
  const s = stats.data;
  const max = Math.max(1, ...(s?.perDay.map((d) => d.count) ?? [1]));
  return (
    <div>
      <div className="console-toolbar">
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
      </div>
      <Row gutter={16}>
        {(
          [
            ['待审核', s?.totals.submitted],
            ['审核通过', s?.totals.approved],
            ['审核未通过', s?.totals.rejected],
            ['已确认', s?.totals.confirmed],
            ['报名无效', s?.totals.expired],
            ['无人报名岗位', s?.emptyPositions],
          ] as const
        ).map(([title, value]) => (
          <Col key={title} span={4}>
            <Card>
              <Statistic title={title} value={value ?? 0} loading={stats.isLoading} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card title="每日提交" className="console-card">
        {s?.perDay.length ? (
          <div className="day-bars" role="img" aria-label={`每日提交：${s.perDay.map((d) => `${d.date} ${d.count} 份`).join('，')}`}>
            {s.perDay.map((d) => (
              <div key={d.date} className="day-bars__bar">
                <span className="day-bars__count">{d.count}</span>
                <span className="day-bars__fill" style={{ height: `${(d.count / max) * 120}px` }} />
                <span className="day-bars__date">{d.date.slice(5)}</span>
              </div>
            ))}
          </div>
        ) : (
          <p>暂无提交</p>
        )}
      </Card>
      <Card title="岗位报名情况" className="console-card">
        <Table
          rowKey="id"
          size="small"
          dataSource={s?.positions}
          pagination={{ pageSize: 50 }}
          columns={[
            { title: '岗位代码', dataIndex: 'code' },
            { title: '岗位名称', dataIndex: 'name' },
            { title: '单位', dataIndex: 'unit' },
            { title: '招聘人数', dataIndex: 'headcount' },
            // The live count the candidate site shows: applications still standing (待审核, 通过, 已确认).
            { title: '报名人数', dataIndex: 'applied', sorter: (a, b) => a.applied - b.applied },
            { title: '待审核', dataIndex: 'submitted' },
            { title: '通过', dataIndex: 'approved' },
            { title: '未通过', dataIndex: 'rejected' },
            { title: '已确认', dataIndex: 'confirmed' },
            // Nobody applied: no ratio to speak of (0:1 reads like a real competition figure).
            { title: '竞争比', dataIndex: 'ratio', render: (r: number) => (r > 0 ? `${r}:1` : '—'), sorter: (a, b) => a.ratio - b.ratio },
          ]}
        />
      </Card>
    </div>
  );
}

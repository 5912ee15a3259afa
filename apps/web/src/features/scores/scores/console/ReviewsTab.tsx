import { SCORE_REVIEW_STATUS_TEXT, answerScoreReviewSchema, formatPoints, type ScoreReview, type ScoreRules } from '@zhikaoyun/shared';
import { App, Button, Empty, Form, Input, InputNumber, Modal, Radio, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../../components/format';
import { zodRule } from '../../../../lib/form-rules';
import { useAnswerScoreReview, useScoreReviews } from './api';

type Filter = 'pending' | 'answered' | 'all';

interface AnswerForm {
  result: 'unchanged' | 'corrected';
  subjectId?: number;
  newScore?: number;
  answer: string;
}

const shape = answerScoreReviewSchema.shape;

/** Answers one request: unchanged, or a corrected score (totals and ranks are recomputed). */
function AnswerDialog({ review, rules, onClose }: { review: ScoreReview | null; rules: ScoreRules; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<AnswerForm>();
  const answer = useAnswerScoreReview();
  const result = Form.useWatch('result', form);
  const submit = (v: AnswerForm) => {
    if (!review) return;
    answer.mutate(
      {
        reviewId: review.id,
        result: v.result,
        answer: v.answer,
        ...(v.result === 'corrected' ? { newScore: v.newScore, ...(review.subjectId === null ? { subjectId: v.subjectId } : {}) } : {}),
      },
      {
        onSuccess: () => {
          void message.success(v.result === 'corrected' ? '已更正成绩并重新排名，已通知考生' : '已答复，已通知考生');
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      open={review !== null}
      title="答复成绩复核"
      okText="提交答复"
      cancelText="取消"
      confirmLoading={answer.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      {review && (
        <p>
          {review.ticketNo} {review.name}（{review.positionName}）· {review.subjectName} 当前 {formatPoints(review.score)} 分
          <br />
          申请理由：{review.reason}
        </p>
      )}
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ result: 'unchanged' }}>
        <Form.Item name="result" label="复核结果">
          <Radio.Group
            options={[
              { value: 'unchanged', label: '复核无误' },
              { value: 'corrected', label: '更正分数' },
            ]}
          />
        </Form.Item>
        {result === 'corrected' && review?.subjectId === null && (
          <Form.Item name="subjectId" label="更正的科目" rules={[{ required: true, message: '请选择更正的科目' }]}>
            <Select options={rules.subjects.map((s) => ({ value: s.subjectId, label: s.name }))} />
          </Form.Item>
        )}
        {result === 'corrected' && (
          <Form.Item
            name="newScore"
            label="更正后的分数"
            rules={[{ required: true, message: '请填写更正后的分数' }, zodRule(shape.newScore)]}
          >
            <InputNumber min={0} step={0.5} style={{ width: '100%' }} aria-label="更正后的分数" />
          </Form.Item>
        )}
        <Form.Item name="answer" label="答复内容" rules={[zodRule(shape.answer)]}>
          <Input.TextArea rows={3} maxLength={500} showCount placeholder="考生将在成绩查询页看到这段答复" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 成绩复核: the candidates' requests, newest first, and their answers. */
export function ReviewsTab({ examId, rules }: { examId: number; rules: ScoreRules }) {
  const [filter, setFilter] = useState<Filter>('pending');
  const reviews = useScoreReviews(examId, filter === 'all' ? undefined : filter);
  const [answering, setAnswering] = useState<ScoreReview | null>(null);
  return (
    <div>
      <p className="console-hint">
        {rules.reviewStart && rules.reviewEnd
          ? `考生可于 ${formatDateTime(rules.reviewStart)} 至 ${formatDateTime(rules.reviewEnd)} 申请复核（每科一次）。`
          : '发布成绩时可设置复核申请时间；未设置时考生不能申请复核。'}
      </p>
      <Radio.Group
        value={filter}
        onChange={(e) => setFilter(e.target.value as Filter)}
        optionType="button"
        options={[
          { value: 'pending', label: '待答复' },
          { value: 'answered', label: '已答复' },
          { value: 'all', label: '全部' },
        ]}
      />
      <Table<ScoreReview>
        className="console-card"
        size="small"
        rowKey="id"
        loading={reviews.isLoading}
        dataSource={reviews.data ?? []}
        locale={{ emptyText: <Empty description="暂无复核申请" /> }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '准考证号', dataIndex: 'ticketNo', width: 130 },
          { title: '姓名', dataIndex: 'name', width: 90 },
          { title: '岗位', dataIndex: 'positionName', width: 120 },
          { title: '科目', dataIndex: 'subjectName', width: 110 },
          { title: '当前分数', dataIndex: 'score', width: 90, render: (v: number | null) => formatPoints(v) },
          { title: '申请理由', dataIndex: 'reason' },
          { title: '申请时间', dataIndex: 'createdAt', width: 150, render: (v: string) => formatDateTime(v) },
          {
            title: '结果',
            key: 'status',
            width: 200,
            render: (_v, r) =>
              r.status === 'pending' ? (
                <Button type="link" size="small" onClick={() => setAnswering(r)}>
                  答复
                </Button>
              ) : (
                <span>
                  <Tag color={r.status === 'corrected' ? 'warning' : 'success'}>{SCORE_REVIEW_STATUS_TEXT[r.status]}</Tag>
                  {r.status === 'corrected' ? `${formatPoints(r.oldScore)} → ${formatPoints(r.newScore)}；` : ''}
                  {r.answer}
                </span>
              ),
          },
        ]}
      />
      <AnswerDialog review={answering} rules={rules} onClose={() => setAnswering(null)} />
    </div>
  );
}

import { SCORE_REVIEW_STATUS_TEXT, formatPoints, requestScoreReviewSchema, zonedDateTime, type MyScore } from '@zhikaoyun/shared';
import { App, Button, Form, Input, Select, Tag } from 'antd';
import { useState } from 'react';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { zodRule } from '../../../../lib/form-rules';
import { useRequestScoreReview } from '../api';

/** The value of the subject select that means the scores as a whole. */
const WHOLE = 0;

interface Values {
  subjectId: number;
  reason: string;
}

/**
 * 成绩复核 on the score page: the window, the candidate's requests with their answers, and the
 * form while the window is open (the server decides; the page only hides what it would refuse).
 */
export function ScoreReviewCard({ score, examId }: { score: MyScore; examId: number }) {
  const { message } = App.useApp();
  // The time the page was opened is enough to show or hide the form: the server checks on submit.
  const [now] = useState(() => new Date().toISOString());
  const [form] = Form.useForm<Values>();
  const request = useRequestScoreReview();
  const { start, end, requests } = score.review;
  if (!start || !end) return null;
  const open = now >= start && now < end;
  const asked = new Set(requests.map((r) => r.subjectId ?? WHOLE));
  const choices = [...score.subjects.map((s) => ({ value: s.subjectId, label: s.name })), { value: WHOLE, label: '全部科目' }].filter(
    (c) => !asked.has(c.value),
  );

  const submit = (v: Values) =>
    request.mutate(
      { examId, reason: v.reason, ...(v.subjectId === WHOLE ? {} : { subjectId: v.subjectId }) },
      {
        onSuccess: () => {
          form.resetFields();
          void message.success('复核申请已提交，答复后会通知您');
        },
      },
    );

  return (
    <div role="region" aria-label="成绩复核">
      <MobileContainerCard title="成绩复核" className="score-card">
        <p className="score-review__window">
          申请时间：{zonedDateTime(start)} 至 {zonedDateTime(end)}
          {now < start ? '（未开始）' : now >= end ? '（已截止）' : ''}
        </p>
        {requests.length > 0 && (
          <ul className="score-review__list">
            {requests.map((r) => (
              <li key={r.id} className="score-review__item">
                <div className="score-review__head">
                  <strong>{r.subjectName}</strong>
                  <Tag>{SCORE_REVIEW_STATUS_TEXT[r.status]}</Tag>
                </div>
                <div className="score-review__text">申请理由：{r.reason}</div>
                {r.status === 'corrected' && (
                  <div className="score-review__text">
                    成绩更正：{formatPoints(r.oldScore)} → {formatPoints(r.newScore)}
                  </div>
                )}
                {r.status !== 'pending' && <div className="score-review__text">答复：{r.answer}</div>}
              </li>
            ))}
          </ul>
        )}
        {open && choices.length > 0 && (
          <Form form={form} layout="vertical" onFinish={submit} initialValues={{ subjectId: choices[0]?.value }}>
            <Form.Item name="subjectId" label="复核科目" rules={[{ required: true, message: '请选择科目' }]}>
              <Select options={choices} />
            </Form.Item>
            <Form.Item name="reason" label="复核理由" rules={[zodRule(requestScoreReviewSchema.shape.reason)]}>
              <Input.TextArea rows={3} maxLength={500} showCount placeholder="请说明申请复核的理由" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={request.isPending}>
              提交复核申请
            </Button>
          </Form>
        )}
      </MobileContainerCard>
    </div>
  );
}

import { Alert } from 'antd';

/** The reviewer's reason for a rejection, where the candidate fixes the application. */
export function ReviewOpinion({ reason }: { reason: string }) {
  return (
    <Alert
      className="review-opinion"
      type="error"
      showIcon
      title={`审核意见：${reason || '资格审查未通过'}`}
      description="请按审核意见修改报考信息后，在报名截止前重新提交。"
    />
  );
}

import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { HINT_ANSWER_MASK, type UserInfo } from '@zhikaoyun/shared';
import { Button } from 'antd';
import { useState } from 'react';
import { useSysStore } from '../lib/store';
import { InfoRows, NOT_SET } from './InfoRows';
import { UserAvatar } from './UserAvatar';

export const PERSONAL_INFO_TITLE = '个人信息';

export interface MobileUserInfoCardProps {
  userInfo: UserInfo;
  /** Show the title: the exam name, or else 个人信息 (§2). */
  showTitle?: boolean;
}

/** The spec's mobile user info card: the hint answer hides behind 6 dots until toggled. */
export function MobileUserInfoCard({ userInfo, showTitle = true }: MobileUserInfoCardProps) {
  const examName = useSysStore((s) => s.examName);
  const [answerShown, setAnswerShown] = useState(false);
  const answer = userInfo.answer ? (answerShown ? userInfo.answer : HINT_ANSWER_MASK) : NOT_SET;

  return (
    <section className="mobile-card user-info-card" aria-label={showTitle ? undefined : PERSONAL_INFO_TITLE}>
      {showTitle && <h2 className="mobile-card__title">{examName || PERSONAL_INFO_TITLE}</h2>}
      <div className="user-info-card__body">
        <UserAvatar photo={userInfo.photo} />
        <div className="user-info-card__main">
          <p className="user-info-card__name">{userInfo.name}</p>
          <InfoRows
            rows={[
              { label: '密保问题', value: userInfo.question },
              { label: '身份证号', value: userInfo.idno },
              {
                label: '提示答案',
                value: (
                  <span className="hint-answer">
                    <span className={userInfo.answer ? 'hint-answer__text' : 'info-rows__empty'} data-testid="hint-answer">
                      {answer}
                    </span>
                    {userInfo.answer && (
                      <Button
                        size="small"
                        type="link"
                        icon={answerShown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                        aria-pressed={answerShown}
                        onClick={() => setAnswerShown((v) => !v)}
                      >
                        {answerShown ? '隐藏' : '显示'}
                      </Button>
                    )}
                  </span>
                ),
              },
              { label: '联系电话', value: userInfo.mobile },
              { label: '电子邮箱', value: userInfo.email },
            ]}
          />
        </div>
      </div>
    </section>
  );
}

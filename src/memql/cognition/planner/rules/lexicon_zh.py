"""The Chinese the rules planner reads: verb cues, step connectives (先…再…, 然后, 最后 …) and the closed
word classes that frame an instruction's content. Patterns run on text with full-width forms folded."""

from __future__ import annotations

import re

from memql.cognition.planner.rules.model import Cue

N = r"[一二两三四五六七八九十百\d]+"  # a number written either way
UNIT = r"(?:分钟|小时|天|日|周|星期|个?礼拜|个月|月|年)"

TAG_REMOVERS = r"(?:删除|删掉|去掉|去除|移除|取消|拿掉|撤掉|摘掉|清除|清掉|抹掉)"

CUES: tuple[Cue, ...] = (
    Cue(r"(?:解锁|解除(?:锁定|保护|冻结)|取消(?:锁定|保护|冻结)|解冻)", "Lock", mode="unlock"),
    Cue(r"(?:只能追加|仅允许追加|只允许追加|仅追加)", "Lock", mode="append_only"),
    Cue(
        r"(?:锁定|锁住|锁上|冻结|设为只读|设置为只读|改为只读|只读|防止(?:任何)?(?:修改|篡改|编辑|更改)|禁止(?:修改|编辑|更改)|"
        r"保护(?:起来)?)",
        "Lock",
    ),
    Cue(
        r"(?:过期|到期|失效|有效期|自动删除|自动清除|"
        + N
        + UNIT
        + r"(?:之?后|以后)(?:自动)?(?:删除|清除|归档|移除)|"
        r"保留(?:到|至)|保留" + N + UNIT + r")",
        "Expire",
    ),
    # a tag word heading what is removed makes the removal a Label: "把记忆7的标签草稿去掉",
    # "把草稿标签从记忆7去掉" (the 把 object ends in the tag, with no 的 after it:
    # "把标签为草稿的记录删掉" deletes records)
    Cue(
        r"把(?:(?!把)[^，,。；;])*?(?:标签|标记)[^，,。；;的]{0,24}?(?:都|全|全部|给)?" + TAG_REMOVERS,
        "Label",
        mode="remove",
    ),
    Cue(TAG_REMOVERS + r".{0,24}?(?:标签|标记)(?!为|成)", "Label", mode="remove"),
    Cue(r"(?:重新打标签|替换标签|标签(?:改为|换成))", "Label", mode="replace"),
    Cue(r"(?:打上?|加上?|添加|贴上?)(?P<tag>[^，,。\s]{0,20}?)(?:的)?标签", "Label"),
    Cue(r"(?:标注|归类|分类为|归为|分到|打上)", "Label"),
    Cue(r"(?:标记|设为|设置为|列为|标为)(?:为|成)?(?:最高|高|低|最低|普通|中|紧急)?优先级", "Priority"),
    Cue(r"标记", "Label"),
    Cue(
        r"(?:删除|删掉|移除|清除|清理|清掉|去掉|抹去|抹掉|忘掉|忘记|丢弃|销毁|(?<=[号条])(?:都|全)?删了)",
        "Delete",
    ),
    Cue(r"(?:合并|整合|融合|合成一个|并为一个|并入|归并|集中到)", "Merge"),
    Cue(r"(?:拆分|切分|分割|拆成|拆开|分解|分离|切成|分拆|分成|分为|划分|分开|切开|断开)", "Split"),
    Cue(r"(?:降低|调低|下调|减少).{0,40}?(?:优先级|重要性|权重)", "Demote"),
    Cue(r"(?:降级|降权|不那么重要|不再重要)", "Demote"),
    Cue(r"(?:优先级|重要性|权重)(?:降低|调低|下调|降)(?:到|至|为)?", "Demote"),
    Cue(r"(?:归档|存档)", "Demote", archive=True),
    Cue(r"(?:提高|提升|调高|上调|增加).{0,40}?(?:优先级|重要性|权重)", "Promote"),
    Cue(r"(?:优先级|重要性|权重)(?:提高|提升|调高|上调|升)(?:到|至|为)?", "Promote"),
    Cue(r"(?:重要多了|更重要了|更加重要|变得重要|头等大事|最要紧|当务之急|刻不容缓)", "Promote"),
    Cue(r"(?:往前提|往上提|提一提|往前挪|往前放|往上挪)", "Promote"),  # 把6号往前提一提
    Cue(r"(?:往后放|往后挪|往下放|往下挪|往后排)", "Demote"),
    Cue(r"(?:提醒我|提醒一下|设(?:置)?(?:一个|个)?.{0,20}?提醒)", "Promote", remind=True),
    # after a comma, 重点关注 says what a summary or search should focus on, not a step of its own
    Cue(r"(?:置顶|优先处理|(?<![，,])重点关注|设为重点|强调|突出|加权|标星)", "Promote"),
    Cue(
        r"(?:更新|修改|更改|改成|改为|改写|重写|修正|订正|编辑|替换|重命名|调整|改一下|改到了?|挪到了?|推迟到|提前到)",
        "Update",
    ),
    Cue(r"的(?:时间|日期|地点|主题|类型|权重)(?:设为|设置为|设成)", "Update"),
    Cue(r"(?:写错了|记错了)", "Update"),
    Cue(r"(?:总结|概括|汇总|摘要|归纳|提炼|概述|梳理|要点|回顾|复盘)", "Summarize"),
    Cue(
        r"(?:查找|查询|检索|搜索|搜一下|找出|找到|找一下|找回|查一下|查看|看看|看一下|显示|列出|调出|获取|读取|找|给我看)",
        "Retrieve",
    ),
    Cue(
        r"(?:记住|保存|存储|存下|存一下|储存|收藏|存起来|记一下|添加一条|新建一条|(?:记录|记|保存|存)下来|"
        r"(?:存|记)一(?:条|笔|下)|以后(?:我)?(?:得|要|会|需要)知道|以后(?:可能)?用得上)",
        "Encode",
    ),
    Cue(r"(?:记录|记下|备忘)", "Encode", "start"),
    Cue(r"看", "Retrieve", "start"),  # "给我看…" once 给我 is read as politeness
)

POLITE = re.compile(
    r"^(?:\s*(?:请你?|麻烦你?|帮我|帮忙|你能不能|你能|能不能|能否|可以|可不可以|我想要?|我需要|我要|给我|确保|务必|"
    r"记得|一定要|嗯|好的|好|那么|那|现在|另外|还有|并且|注意|提醒一下你|顺便说一下|顺便)[\s,，:：]*)+"
)
STEP_MARKERS = re.compile(
    r"[，,。；;！!]?\s*(?:然后|接着|随后|之后|以后再|再然后)[\s,，:：]*"
    r"|[，,。；;！!]\s*(?:最后|最终|再|并且|并|同时|另外)[\s,，:：]*"
    r"|[。；;！!]\s*"
)
THEN_AFTER_FIRST = re.compile(r"再(?=\S)")  # 先…再… : 再 starts a step only after a 先
STEP_OPENERS = re.compile(r"^(?:首先|先|第一步)[\s,，:：]*")

DETERMINERS = re.compile(
    r"^(?:(?:所有|全部|全体|这些|那些|这个|那个|这份|那份|这条|那条|这段|那段|这次|那次|这篇|该|每个|每条|一些|"
    r"我的|我们的|相关的?|有关的?|关于|对于|的)\s*)+"
)
GENERIC_NOUNS = (
    "记录",
    "记忆",
    "笔记",
    "内容",
    "文档",
    "文件",
    "资料",
    "信息",
    "数据",
    "条目",
    "东西",
    "部分",
    "材料",
    "相关",
    "所有",
    "全部",
    "讨论内容",
    "讨论",
)
DEICTIC = re.compile(r"(?:它们|它|这些|那些|这条|这份|这个|那个|上述|以上|该|其|刚才的?|结果)")
ALL_WORDS = re.compile(
    r"(?:所有(?:的)?(?:记忆|记录|笔记|条目|数据|内容)|全部(?:的)?(?:记忆|记录|笔记|条目|数据|内容)|一切|全部|所有)$"
)
HARD_DELETE = re.compile(r"(?:永久|彻底|永远|不可恢复|无法恢复|硬删除)")
SINGULAR_LATEST = re.compile(r"(?:最新|最近)的?一(?:条|份|个|篇)")
QUESTION = re.compile(r"(?:吗|呢|什么|哪些|哪个|几|多少|是否|有没有)[？?]?$|[？?]$")
REASON = re.compile(r"(?:因为|由于|以便|为了|以免|以防|防止|方便).*$")
TRAILERS = re.compile(
    r"[，,]?\s*(?:以便|为了|以免|以防|方便|便于|因为|由于|确保|保证).*$|(?:一下|吧|吗|呢|。|！|!)+$"
)
NUMBER = re.compile(N)
EXTERNAL = re.compile(r"^(?:通知|发送|发给|上传|分享|转发|发布|告诉|提交|汇报给|打电话)")

# record kinds a phrase can name ("删除最近21天的任务"); 笔记/记录 are records in general, never a kind
TYPE_WORDS: dict[str, str] = {
    "任务": "task",
    "待办": "task",
    "事件": "event",
    "日程": "event",
    "想法": "idea",
    "点子": "idea",
    "参考资料": "reference",
    "事实": "fact",
}

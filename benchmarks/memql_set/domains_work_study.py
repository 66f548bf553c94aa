"""Work, money and study domains of the content bank."""

from __future__ import annotations

from benchmarks.memql_set.bank import LEARNING, MONEY, PERSONAL, WORK, Domain, note

WORK_AND_STUDY: tuple[Domain, ...] = (
    Domain(
        "budget",
        ("the Q3 budget", "第三季度预算"),
        ("budget", "预算"),
        WORK,
        "note",
        (
            note(
                "The Q3 marketing spend is capped at 40,000 euros.",
                "第三季度市场投入上限为四万欧元。",
                "marketing spend",
                "市场投入",
            ),
            note(
                "Finance wants the travel costs cut by ten percent.",
                "财务部要求差旅费用削减百分之十。",
                "travel costs",
                "差旅费用",
            ),
            note(
                "The new laptops come out of the equipment line.",
                "新笔记本电脑从设备预算里出。",
                "equipment line",
                "设备预算",
            ),
            note(
                "Hiring two contractors was approved for September.",
                "九月份批准招两名外包人员。",
                "two contractors",
                "两名外包人员",
            ),
        ),
        (
            (
                (
                    "Revenue came in above plan.",
                    "Cloud costs grew faster than expected.",
                    "The hiring freeze ends in October.",
                ),
                ("收入高于计划。", "云服务费用增长超出预期。", "招聘冻结十月结束。"),
            ),
            (
                (
                    "The budget review is on the 14th.",
                    "Every team lead sends numbers by Friday.",
                    "The final version goes to the board.",
                ),
                ("预算评审在14号。", "每个组长周五前交数字。", "最终版提交董事会。"),
            ),
        ),
    ),
    Domain(
        "apollo",
        ("project Apollo", "阿波罗项目"),
        ("apollo", "阿波罗"),
        WORK,
        "task",
        (
            note(
                "The Apollo beta ships to ten pilot customers in May.",
                "阿波罗测试版五月交付十家试点客户。",
                "pilot customers",
                "试点客户",
            ),
            note(
                "The login service still fails the load test.",
                "登录服务仍未通过压力测试。",
                "load test",
                "压力测试",
            ),
            note(
                "Priya owns the data migration scripts.",
                "普丽雅负责数据迁移脚本。",
                "data migration",
                "数据迁移",
            ),
            note(
                "The design review moved to the 3rd floor room.",
                "设计评审改到三楼会议室。",
                "design review",
                "设计评审",
                when=True,
            ),
        ),
        (
            (
                (
                    "Freeze the API on Monday.",
                    "Write the release notes on Tuesday.",
                    "Tag the release on Wednesday.",
                ),
                ("周一冻结接口。", "周二写发布说明。", "周三打发布标签。"),
            ),
            (
                (
                    "The pilot feedback was mostly positive.",
                    "Two customers asked for single sign-on.",
                    "One customer found the export too slow.",
                ),
                ("试点反馈大多正面。", "两家客户要求单点登录。", "一家客户觉得导出太慢。"),
            ),
        ),
    ),
    Domain(
        "offsite",
        ("the team offsite", "团建"),
        ("offsite", "团建"),
        WORK,
        "event",
        (
            note("The offsite is in Porto on May 12.", "团建五月十二日在波尔图。", "in Porto", "在波尔图"),
            note("Book the minibus for sixteen people.", "订一辆坐十六人的小巴。", "minibus", "小巴"),
            note(
                "The cooking workshop replaces the escape room.",
                "烹饪工作坊替代密室逃脱。",
                "cooking workshop",
                "烹饪工作坊",
                when=True,
            ),
            note(
                "Collect dietary needs by the end of April.",
                "四月底前收集饮食禁忌。",
                "dietary needs",
                "饮食禁忌",
            ),
        ),
        (
            (
                ("Morning is strategy.", "Afternoon is the workshop.", "Evening is dinner by the river."),
                ("上午讲战略。", "下午是工作坊。", "晚上在河边吃饭。"),
            ),
            (
                ("Bring laptops.", "Wear comfortable shoes.", "The bus leaves at eight."),
                ("带上笔记本电脑。", "穿舒服的鞋。", "大巴八点出发。"),
            ),
        ),
    ),
    Domain(
        "office",
        ("the old office", "旧办公室"),
        ("office-move", "搬办公室"),
        WORK,
        "task",
        (
            note(
                "Return the old office keys to the landlord.",
                "把旧办公室钥匙还给房东。",
                "old office keys",
                "旧办公室钥匙",
            ),
            note(
                "The movers pack the archive boxes on Friday.",
                "搬家公司周五打包档案箱。",
                "archive boxes",
                "档案箱",
            ),
            note(
                "The printer lease ends with the move.",
                "打印机租约随搬迁结束。",
                "printer lease",
                "打印机租约",
            ),
            note(
                "Set up post forwarding to the new address for three months.",
                "设置邮件转寄到新地址，为期三个月。",
                "post forwarding",
                "邮件转寄",
            ),
        ),
        (
            (
                ("Label every box.", "Photograph the meter readings.", "Hand over the alarm code."),
                ("每个箱子贴标签。", "给电表读数拍照。", "交接报警密码。"),
            ),
            (
                ("The desks stay behind.", "The plants come with us.", "The server rack moves last."),
                ("桌子留下。", "绿植带走。", "服务器机柜最后搬。"),
            ),
        ),
    ),
    Domain(
        "conference",
        ("the conference talk", "大会演讲"),
        ("conference", "大会"),
        WORK,
        "task",
        (
            note(
                "The talk slot is 25 minutes on day two.",
                "演讲安排在第二天，时长25分钟。",
                "talk slot",
                "演讲安排",
            ),
            note(
                "Send the slides to the organisers by the 20th.",
                "20号前把幻灯片发给主办方。",
                "slides to the organisers",
                "幻灯片发给主办方",
            ),
            note(
                "Rehearse the live demo twice with Omar.",
                "和奥马尔把现场演示排练两遍。",
                "live demo",
                "现场演示",
            ),
            note(
                "The speaker dinner is at the harbour restaurant.",
                "讲者晚宴在港口餐厅。",
                "speaker dinner",
                "讲者晚宴",
                when=True,
            ),
        ),
        (
            (
                ("Open with the customer story.", "Show the architecture.", "End with the roadmap."),
                ("用客户故事开场。", "展示架构。", "以路线图结尾。"),
            ),
            (
                (
                    "Questions ran over time.",
                    "The demo worked first time.",
                    "Three people asked for the slides.",
                ),
                ("提问超时了。", "演示一次成功。", "三个人要了幻灯片。"),
            ),
        ),
    ),
    Domain(
        "tax",
        ("the tax return", "报税"),
        ("tax", "报税"),
        MONEY,
        "task",
        (
            note(
                "The filing deadline for the tax return is July 31.",
                "报税截止日期是七月三十一日。",
                "filing deadline",
                "截止日期",
            ),
            note(
                "Keep the receipts for the home office desk.",
                "保留家庭办公桌的收据。",
                "home office desk",
                "家庭办公桌",
            ),
            note(
                "The accountant charges a flat fee of 250 euros.",
                "会计师收取二百五十欧元固定费用。",
                "flat fee",
                "固定费用",
            ),
            note(
                "Charity donations count as deductions.",
                "慈善捐款可以抵扣。",
                "Charity donations",
                "慈善捐款",
            ),
        ),
        (
            (
                (
                    "Download the salary statement.",
                    "Sort the receipts by month.",
                    "Book a call with the accountant.",
                ),
                ("下载工资单。", "按月份整理收据。", "约会计师通电话。"),
            ),
            (
                (
                    "The refund arrived in October.",
                    "The pension payments were counted.",
                    "Next year needs the rental income.",
                ),
                ("退税十月到账。", "养老金缴费已计入。", "明年要申报租金收入。"),
            ),
        ),
    ),
    Domain(
        "insurance",
        ("insurance", "保险"),
        ("insurance", "保险"),
        MONEY,
        "reference",
        (
            note(
                "The home insurance policy number is HX-4471.",
                "家财险保单号是HX-4471。",
                "policy number",
                "保单号",
            ),
            note(
                "The car insurance renews on the first of March.",
                "车险三月一日续保。",
                "car insurance",
                "车险",
            ),
            note(
                "Claims over 500 euros need photos of the damage.",
                "超过五百欧元的理赔需要损坏照片。",
                "photos of the damage",
                "损坏照片",
            ),
            note(
                "The travel insurance excludes winter sports.",
                "旅行险不包括冬季运动。",
                "winter sports",
                "冬季运动",
            ),
        ),
        (
            (
                ("Call the broker.", "Compare three quotes.", "Cancel the old policy in writing."),
                ("给经纪人打电话。", "比较三家报价。", "书面取消旧保单。"),
            ),
            (
                (
                    "The deductible is 300 euros.",
                    "Glass damage is covered in full.",
                    "Theft needs a police report.",
                ),
                ("免赔额是三百欧元。", "玻璃损坏全额赔付。", "失窃需要报警记录。"),
            ),
        ),
    ),
    Domain(
        "spanish",
        ("Spanish lessons", "西班牙语课"),
        ("spanish", "西班牙语"),
        LEARNING,
        "note",
        (
            note(
                "The irregular verbs quiz is next Wednesday.",
                "不规则动词小测在下周三。",
                "irregular verbs",
                "不规则动词",
            ),
            note(
                "Lucia lends me her subjunctive workbook.",
                "露西亚借给我她的虚拟语气练习册。",
                "subjunctive workbook",
                "虚拟语气练习册",
            ),
            note(
                "Practise rolling the r with the tongue twister.",
                "用绕口令练习颤音。",
                "tongue twister",
                "绕口令",
            ),
            note(
                "The conversation club meets in the library café.",
                "会话俱乐部在图书馆咖啡厅见面。",
                "conversation club",
                "会话俱乐部",
            ),
        ),
        (
            (
                ("Review the numbers.", "Learn twenty new words.", "Watch one episode without subtitles."),
                ("复习数字。", "背二十个新单词。", "看一集不带字幕的剧。"),
            ),
            (
                ("Ser is for identity.", "Estar is for states.", "Haber is for existence."),
                ("ser表示身份。", "estar表示状态。", "haber表示存在。"),
            ),
        ),
    ),
    Domain(
        "bookclub",
        ("the book club", "读书会"),
        ("bookclub", "读书会"),
        PERSONAL,
        "event",
        (
            note(
                "This month's book club pick is The Remains of the Day.",
                "本月读书会选的是《长日将尽》。",
                "Remains of the Day",
                "长日将尽",
            ),
            note(
                "The next meeting at Hana's flat starts at seven.",
                "在花的公寓的下次聚会七点开始。",
                "meeting at Hana's flat",
                "花的公寓的下次聚会",
                when=True,
            ),
            note(
                "Prepare the question about the unreliable narrator.",
                "准备一个关于不可靠叙述者的问题。",
                "question about the unreliable narrator",
                "不可靠叙述者的问题",
            ),
            note(
                "Vote on the summer reading list before June.",
                "六月前投票选夏季书单。",
                "summer reading list",
                "夏季书单",
            ),
        ),
        (
            (
                (
                    "Chapter one sets up the journey.",
                    "Chapter four is the turning point.",
                    "The ending is quiet.",
                ),
                ("第一章铺垫旅程。", "第四章是转折点。", "结局很平静。"),
            ),
            (
                ("Sam liked the dialogue.", "Iris found the pacing slow.", "Everyone agreed on the ending."),
                ("萨姆喜欢对话。", "艾瑞丝觉得节奏慢。", "大家都认可结局。"),
            ),
        ),
    ),
    Domain(
        "piano",
        ("piano lessons", "钢琴课"),
        ("piano", "钢琴"),
        LEARNING,
        "event",
        (
            note(
                "The lesson slot moved to Thursday evenings.",
                "上课时间改到周四晚上。",
                "lesson slot",
                "上课时间",
            ),
            note(
                "Practise the Chopin nocturne slowly with the metronome.",
                "用节拍器慢练肖邦夜曲。",
                "Chopin nocturne",
                "肖邦夜曲",
            ),
            note(
                "The piano tuner's visit is in November.",
                "调音师十一月上门。",
                "piano tuner's visit",
                "调音师",
                when=True,
            ),
            note(
                "The spring recital is in the church hall.",
                "春季演奏会在教堂礼堂举行。",
                "spring recital",
                "春季演奏会",
                when=True,
            ),
        ),
        (
            (
                (
                    "Play scales for ten minutes.",
                    "Work on the left hand alone.",
                    "Play the whole piece once.",
                ),
                ("先弹十分钟音阶。", "单独练左手。", "完整弹一遍曲子。"),
            ),
            (
                (
                    "The teacher praised the phrasing.",
                    "The pedalling is still muddy.",
                    "The tempo should stay steady.",
                ),
                ("老师表扬了乐句处理。", "踏板还是不干净。", "速度要保持稳定。"),
            ),
        ),
    ),
)

"""The bilingual content bank the bench set draws its memories from.

Twenty life and work domains, each with a topic phrase, a domain tag and a category tag (English and
Chinese), a default record type, four short notes and two multi-sentence texts. Every note carries a key
phrase (a substring of its text in each language) that names it in instructions and searches; key phrases
do not recur across notes, so "the note about the gate change" picks out one record. The Chinese side is
a translation, not a transliteration: a Chinese user's notes are in Chinese, with Chinese tags.

Sentences end with "." or "。" and avoid abbreviations and decimals, so that sentence-based Split and
Merge have one obvious reading.
"""

from __future__ import annotations

from dataclasses import dataclass

Text = tuple[str, str]  # (English, Chinese)


@dataclass(frozen=True)
class Note:
    text: Text
    key: Text  # a noun phrase inside the text that identifies the note ("the {key}" reads well)
    when: bool = False  # an occasion: something that happens at a time, which can be moved


@dataclass(frozen=True)
class Domain:
    name: str
    topic: Text  # "the Lisbon trip" / "里斯本之行"
    tag: Text  # the domain's own tag
    category: Text  # a broader tag shared with other domains
    kind: str  # the record type its notes usually have
    notes: tuple[Note, ...]
    long: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]  # multi-sentence texts as sentences (en, zh)


def _n(en: str, zh: str, key_en: str, key_zh: str, *, when: bool = False) -> Note:
    if key_en not in en or key_zh not in zh:
        raise ValueError(f"key phrase not in the note: {key_en!r} / {key_zh!r}")
    return Note((en, zh), (key_en, key_zh), when)


PERSONAL, HEALTH, WORK, HOME = ("personal", "个人"), ("health", "健康"), ("work", "工作"), ("home", "家居")
LEARNING, MONEY, FAMILY = ("learning", "学习"), ("money", "财务"), ("family", "家庭")

DOMAINS: tuple[Domain, ...] = (
    Domain(
        "lisbon",
        ("the Lisbon trip", "里斯本之行"),
        ("lisbon", "里斯本"),
        PERSONAL,
        "event",
        (
            _n("The flight to Lisbon leaves at 7:40 from gate B12.", "飞往里斯本的航班7:40从B12登机口起飞。",
               "flight to Lisbon", "飞往里斯本的航班", when=True),
            _n("The hotel in Alfama is booked for four nights.", "阿尔法玛的酒店订了四晚。",
               "hotel in Alfama", "阿尔法玛的酒店"),
            _n("Ask Marta about the tram pass before the trip.", "出发前问玛尔塔电车通票的事。",
               "tram pass", "电车通票"),
            _n("The fado concert tickets are in the email from Tuesday.", "法朵音乐会的门票在周二的邮件里。",
               "fado concert", "法朵音乐会", when=True),
        ),
        (
            (("Pack the plug adapter.", "Print the museum tickets.", "Exchange some euros at the airport."),
             ("带上插头转换器。", "打印博物馆门票。", "在机场换一些欧元。")),
            (("Day one is the castle.", "Day two is Belem and the tower.", "Day three is a beach day in Cascais.",
              "The last evening is dinner in Bairro Alto."),
             ("第一天去城堡。", "第二天去贝伦塔。", "第三天去卡斯凯什海滩。", "最后一晚在上城区吃晚饭。")),
        ),
    ),
    Domain(
        "dentist",
        ("the dentist", "看牙"),
        ("dentist", "牙医"),
        HEALTH,
        "event",
        (
            _n("The dentist appointment is on Thursday at 15:00.", "周四15:00有牙医预约。",
               "dentist appointment", "牙医预约", when=True),
            _n("Dr Chen recommended a softer toothbrush.", "陈医生建议换一把软毛牙刷。",
               "softer toothbrush", "软毛牙刷"),
            _n("The filling on the lower left molar needs a check in six months.", "左下磨牙的补牙半年后要复查。",
               "lower left molar", "左下磨牙"),
            _n("The dental insurance covers two cleanings a year.", "牙科保险每年报销两次洗牙。",
               "two cleanings", "两次洗牙"),
        ),
        (
            (("Brush for two minutes.", "Floss every evening.", "Avoid coffee right after the cleaning."),
             ("每次刷牙两分钟。", "每晚用牙线。", "洗牙后不要马上喝咖啡。")),
            (("The x-ray showed no new cavities.", "The gums look healthier than last year.",
              "The next cleaning is due in spring."),
             ("X光片没有发现新的蛀牙。", "牙龈比去年健康。", "下次洗牙在春天。")),
        ),
    ),
    Domain(
        "budget",
        ("the Q3 budget", "第三季度预算"),
        ("budget", "预算"),
        WORK,
        "note",
        (
            _n("The Q3 marketing spend is capped at 40,000 euros.", "第三季度市场投入上限为四万欧元。",
               "marketing spend", "市场投入"),
            _n("Finance wants the travel costs cut by ten percent.", "财务部要求差旅费用削减百分之十。",
               "travel costs", "差旅费用"),
            _n("The new laptops come out of the equipment line.", "新笔记本电脑从设备预算里出。",
               "equipment line", "设备预算"),
            _n("Hiring two contractors was approved for September.", "九月份批准招两名外包人员。",
               "two contractors", "两名外包人员"),
        ),
        (
            (("Revenue came in above plan.", "Cloud costs grew faster than expected.",
              "The hiring freeze ends in October."),
             ("收入高于计划。", "云服务费用增长超出预期。", "招聘冻结十月结束。")),
            (("The budget review is on the 14th.", "Every team lead sends numbers by Friday.",
              "The final version goes to the board."),
             ("预算评审在14号。", "每个组长周五前交数字。", "最终版提交董事会。")),
        ),
    ),
    Domain(
        "apollo",
        ("project Apollo", "阿波罗项目"),
        ("apollo", "阿波罗"),
        WORK,
        "task",
        (
            _n("The Apollo beta ships to ten pilot customers in May.", "阿波罗测试版五月交付十家试点客户。",
               "pilot customers", "试点客户"),
            _n("The login service still fails the load test.", "登录服务仍未通过压力测试。",
               "load test", "压力测试"),
            _n("Priya owns the data migration scripts.", "普丽雅负责数据迁移脚本。",
               "data migration", "数据迁移"),
            _n("The design review moved to the 3rd floor room.", "设计评审改到三楼会议室。",
               "design review", "设计评审", when=True),
        ),
        (
            (("Freeze the API on Monday.", "Write the release notes on Tuesday.", "Tag the release on Wednesday."),
             ("周一冻结接口。", "周二写发布说明。", "周三打发布标签。")),
            (("The pilot feedback was mostly positive.", "Two customers asked for single sign-on.",
              "One customer found the export too slow."),
             ("试点反馈大多正面。", "两家客户要求单点登录。", "一家客户觉得导出太慢。")),
        ),
    ),
    Domain(
        "garden",
        ("the garden", "花园"),
        ("garden", "花园"),
        HOME,
        "task",
        (
            _n("Plant the tulip bulbs before the first frost.", "第一次霜冻前种下郁金香球茎。",
               "tulip bulbs", "郁金香球茎"),
            _n("The apple tree needs pruning in February.", "苹果树二月需要修剪。",
               "apple tree", "苹果树"),
            _n("Buy a longer hose for the back beds.", "给后面的花坛买一根更长的水管。",
               "longer hose", "更长的水管"),
            _n("The tomatoes did best against the south fence.", "番茄靠南边篱笆长得最好。",
               "south fence", "南边篱笆"),
        ),
        (
            (("Rake the leaves.", "Cover the roses.", "Drain the rain barrel."),
             ("耙落叶。", "给玫瑰盖上防寒布。", "把雨水桶排空。")),
            (("Basil needs sun all day.", "Mint spreads fast and wants a pot.", "Rosemary survives the winter outside."),
             ("罗勒需要全天日照。", "薄荷长得快要种在盆里。", "迷迭香能在室外过冬。")),
        ),
    ),
    Domain(
        "car",
        ("the car", "汽车"),
        ("car", "汽车"),
        HOME,
        "task",
        (
            _n("The winter tyres are stored at the garage on Elm Street.", "冬季轮胎存放在榆树街的修车行。",
               "winter tyres", "冬季轮胎"),
            _n("The next oil change is due at 60,000 km.", "下次换机油在六万公里。",
               "oil change", "换机油"),
            _n("The parking permit renews every January.", "停车许可每年一月续期。",
               "parking permit", "停车许可"),
            _n("The spare key is in the blue drawer.", "备用车钥匙在蓝色抽屉里。",
               "spare key", "备用车钥匙"),
        ),
        (
            (("Check the tyre pressure.", "Top up the washer fluid.", "Clean the headlights."),
             ("检查胎压。", "加满玻璃水。", "清洁大灯。")),
            (("The inspection passed in March.", "The brake pads were replaced.", "The wipers need changing soon."),
             ("三月年检通过了。", "刹车片已经换过了。", "雨刮器快要换了。")),
        ),
    ),
    Domain(
        "recipes",
        ("recipes", "菜谱"),
        ("recipe", "菜谱"),
        HOME,
        "reference",
        (
            _n("The lentil soup needs cumin and a squeeze of lemon.", "扁豆汤要放孜然和一点柠檬汁。",
               "lentil soup", "扁豆汤"),
            _n("Grandma's dumpling dough rests for thirty minutes.", "奶奶的饺子面要醒三十分钟。",
               "dumpling dough", "饺子面"),
            _n("The banana bread bakes at 175 degrees for an hour.", "香蕉面包175度烤一小时。",
               "banana bread", "香蕉面包"),
            _n("Toast the sesame seeds before adding them to the noodles.", "芝麻先炒香再拌进凉面。",
               "sesame seeds", "芝麻"),
        ),
        (
            (("Soak the chickpeas overnight.", "Boil them for an hour.", "Blend them with tahini and garlic."),
             ("鹰嘴豆泡一夜。", "煮一个小时。", "加芝麻酱和大蒜打成泥。")),
            (("Brown the onions slowly.", "Add the rice and stir.", "Pour in the stock a ladle at a time."),
             ("洋葱慢慢炒到焦黄。", "加入米翻炒。", "一勺一勺加高汤。")),
        ),
    ),
    Domain(
        "spanish",
        ("Spanish lessons", "西班牙语课"),
        ("spanish", "西班牙语"),
        LEARNING,
        "note",
        (
            _n("The irregular verbs quiz is next Wednesday.", "不规则动词小测在下周三。",
               "irregular verbs", "不规则动词"),
            _n("Lucia lends me her subjunctive workbook.", "露西亚借给我她的虚拟语气练习册。",
               "subjunctive workbook", "虚拟语气练习册"),
            _n("Practise rolling the r with the tongue twister.", "用绕口令练习颤音。",
               "tongue twister", "绕口令"),
            _n("The conversation club meets in the library café.", "会话俱乐部在图书馆咖啡厅见面。",
               "conversation club", "会话俱乐部"),
        ),
        (
            (("Review the numbers.", "Learn twenty new words.", "Watch one episode without subtitles."),
             ("复习数字。", "背二十个新单词。", "看一集不带字幕的剧。")),
            (("Ser is for identity.", "Estar is for states.", "Haber is for existence."),
             ("ser表示身份。", "estar表示状态。", "haber表示存在。")),
        ),
    ),
    Domain(
        "renovation",
        ("the kitchen renovation", "厨房装修"),
        ("renovation", "装修"),
        HOME,
        "task",
        (
            _n("The plumber comes on Monday to move the sink.", "水管工周一来移水槽。",
               "move the sink", "移水槽"),
            _n("We chose the oak worktop over the granite one.", "我们选了橡木台面而不是花岗岩台面。",
               "oak worktop", "橡木台面"),
            _n("The electrician quoted 1,200 euros for new sockets.", "电工给新插座报价一千二百欧元。",
               "new sockets", "新插座"),
            _n("The tiles arrive three weeks late.", "瓷砖晚到三周。",
               "tiles arrive", "瓷砖晚到"),
        ),
        (
            (("Empty the cupboards.", "Cover the floor.", "Turn off the water at the main valve."),
             ("清空橱柜。", "把地板盖好。", "关掉总水阀。")),
            (("The old cabinets go to the recycling yard.", "The fridge stays in the hallway for a week.",
              "The painter starts after the tiles."),
             ("旧橱柜送去回收站。", "冰箱在走廊放一周。", "贴完瓷砖后油漆工开工。")),
        ),
    ),
    Domain(
        "offsite",
        ("the team offsite", "团建"),
        ("offsite", "团建"),
        WORK,
        "event",
        (
            _n("The offsite is in Porto on May 12.", "团建五月十二日在波尔图。",
               "in Porto", "在波尔图"),
            _n("Book the minibus for sixteen people.", "订一辆坐十六人的小巴。",
               "minibus", "小巴"),
            _n("The cooking workshop replaces the escape room.", "烹饪工作坊替代密室逃脱。",
               "cooking workshop", "烹饪工作坊", when=True),
            _n("Collect dietary needs by the end of April.", "四月底前收集饮食禁忌。",
               "dietary needs", "饮食禁忌"),
        ),
        (
            (("Morning is strategy.", "Afternoon is the workshop.", "Evening is dinner by the river."),
             ("上午讲战略。", "下午是工作坊。", "晚上在河边吃饭。")),
            (("Bring laptops.", "Wear comfortable shoes.", "The bus leaves at eight."),
             ("带上笔记本电脑。", "穿舒服的鞋。", "大巴八点出发。")),
        ),
    ),
    Domain(
        "bookclub",
        ("the book club", "读书会"),
        ("bookclub", "读书会"),
        PERSONAL,
        "event",
        (
            _n("This month's book club pick is The Remains of the Day.", "本月读书会选的是《长日将尽》。",
               "Remains of the Day", "长日将尽"),
            _n("The next meeting at Hana's flat starts at seven.", "在花的公寓的下次聚会七点开始。",
               "meeting at Hana's flat", "花的公寓的下次聚会", when=True),
            _n("Prepare the question about the unreliable narrator.", "准备一个关于不可靠叙述者的问题。",
               "question about the unreliable narrator", "不可靠叙述者的问题"),
            _n("Vote on the summer reading list before June.", "六月前投票选夏季书单。",
               "summer reading list", "夏季书单"),
        ),
        (
            (("Chapter one sets up the journey.", "Chapter four is the turning point.", "The ending is quiet."),
             ("第一章铺垫旅程。", "第四章是转折点。", "结局很平静。")),
            (("Sam liked the dialogue.", "Iris found the pacing slow.", "Everyone agreed on the ending."),
             ("萨姆喜欢对话。", "艾瑞丝觉得节奏慢。", "大家都认可结局。")),
        ),
    ),
    Domain(
        "running",
        ("running", "跑步"),
        ("running", "跑步"),
        HEALTH,
        "note",
        (
            _n("The half marathon starts at 9:00 at the harbour.", "半程马拉松九点在港口起跑。",
               "half marathon", "半程马拉松", when=True),
            _n("New trail shoes after 600 kilometres.", "跑满六百公里换新越野跑鞋。",
               "trail shoes", "越野跑鞋"),
            _n("Interval training on Tuesdays with the club.", "周二和跑团一起做间歇训练。",
               "Interval training", "间歇训练"),
            _n("Stretch the left calf after long runs.", "长距离跑后拉伸左小腿。",
               "left calf", "左小腿"),
        ),
        (
            (("Warm up for ten minutes.", "Run six intervals.", "Cool down with an easy jog."),
             ("热身十分钟。", "跑六组间歇。", "慢跑放松。")),
            (("Week one is three short runs.", "Week two adds a long run.", "Week three is a rest week."),
             ("第一周三次短跑。", "第二周加一次长跑。", "第三周休息。")),
        ),
    ),
    Domain(
        "insurance",
        ("insurance", "保险"),
        ("insurance", "保险"),
        MONEY,
        "reference",
        (
            _n("The home insurance policy number is HX-4471.", "家财险保单号是HX-4471。",
               "policy number", "保单号"),
            _n("The car insurance renews on the first of March.", "车险三月一日续保。",
               "car insurance", "车险"),
            _n("Claims over 500 euros need photos of the damage.", "超过五百欧元的理赔需要损坏照片。",
               "photos of the damage", "损坏照片"),
            _n("The travel insurance excludes winter sports.", "旅行险不包括冬季运动。",
               "winter sports", "冬季运动"),
        ),
        (
            (("Call the broker.", "Compare three quotes.", "Cancel the old policy in writing."),
             ("给经纪人打电话。", "比较三家报价。", "书面取消旧保单。")),
            (("The deductible is 300 euros.", "Glass damage is covered in full.", "Theft needs a police report."),
             ("免赔额是三百欧元。", "玻璃损坏全额赔付。", "失窃需要报警记录。")),
        ),
    ),
    Domain(
        "office",
        ("the old office", "旧办公室"),
        ("office-move", "搬办公室"),
        WORK,
        "task",
        (
            _n("Return the old office keys to the landlord.", "把旧办公室钥匙还给房东。",
               "old office keys", "旧办公室钥匙"),
            _n("The movers pack the archive boxes on Friday.", "搬家公司周五打包档案箱。",
               "archive boxes", "档案箱"),
            _n("The printer lease ends with the move.", "打印机租约随搬迁结束。",
               "printer lease", "打印机租约"),
            _n("Set up post forwarding to the new address for three months.", "设置邮件转寄到新地址，为期三个月。",
               "post forwarding", "邮件转寄"),
        ),
        (
            (("Label every box.", "Photograph the meter readings.", "Hand over the alarm code."),
             ("每个箱子贴标签。", "给电表读数拍照。", "交接报警密码。")),
            (("The desks stay behind.", "The plants come with us.", "The server rack moves last."),
             ("桌子留下。", "绿植带走。", "服务器机柜最后搬。")),
        ),
    ),
    Domain(
        "birthday",
        ("Mum's birthday", "妈妈的生日"),
        ("birthday", "生日"),
        FAMILY,
        "event",
        (
            _n("Mum's birthday dinner is at the Italian place on Saturday.", "妈妈的生日晚餐周六在意大利餐厅。",
               "birthday dinner", "生日晚餐", when=True),
            _n("Order the lemon cake two days ahead.", "提前两天订柠檬蛋糕。",
               "lemon cake", "柠檬蛋糕"),
            _n("She wants a new gardening book this year.", "她今年想要一本新的园艺书。",
               "gardening book", "园艺书"),
            _n("Uncle Leo picks up the flowers.", "利奥舅舅去取鲜花。",
               "picks up the flowers", "去取鲜花"),
        ),
        (
            (("Book the table.", "Send the invitations.", "Collect money for the present."),
             ("订位。", "发邀请。", "凑钱买礼物。")),
            (("The cake comes at six.", "Guests arrive at seven.", "Speeches start after dessert."),
             ("蛋糕六点送到。", "客人七点到。", "甜点后开始致辞。")),
        ),
    ),
    Domain(
        "network",
        ("the home network", "家里的网络"),
        ("wifi", "网络"),
        HOME,
        "reference",
        (
            _n("The guest wifi is called Harbour-Guest.", "访客无线网叫Harbour-Guest。",
               "guest wifi", "访客无线网"),
            _n("The router restarts itself every Sunday at 4:00.", "路由器每周日4:00自动重启。",
               "router restarts", "路由器每周日"),
            _n("The fibre contract can be cancelled after June.", "光纤合约六月后可以取消。",
               "fibre contract", "光纤合约"),
            _n("The mesh node in the attic drops the signal.", "阁楼的网状节点信号不稳。",
               "mesh node", "网状节点"),
        ),
        (
            (("Update the router firmware.", "Change the admin password.", "Turn off remote management."),
             ("更新路由器固件。", "修改管理员密码。", "关闭远程管理。")),
            (("The printer has a fixed address.", "The cameras use their own network.", "The TV stays on cable."),
             ("打印机用固定地址。", "摄像头走单独网络。", "电视继续用有线。")),
        ),
    ),
    Domain(
        "conference",
        ("the conference talk", "大会演讲"),
        ("conference", "大会"),
        WORK,
        "task",
        (
            _n("The talk slot is 25 minutes on day two.", "演讲安排在第二天，时长25分钟。",
               "talk slot", "演讲安排"),
            _n("Send the slides to the organisers by the 20th.", "20号前把幻灯片发给主办方。",
               "slides to the organisers", "幻灯片发给主办方"),
            _n("Rehearse the live demo twice with Omar.", "和奥马尔把现场演示排练两遍。",
               "live demo", "现场演示"),
            _n("The speaker dinner is at the harbour restaurant.", "讲者晚宴在港口餐厅。",
               "speaker dinner", "讲者晚宴", when=True),
        ),
        (
            (("Open with the customer story.", "Show the architecture.", "End with the roadmap."),
             ("用客户故事开场。", "展示架构。", "以路线图结尾。")),
            (("Questions ran over time.", "The demo worked first time.", "Three people asked for the slides."),
             ("提问超时了。", "演示一次成功。", "三个人要了幻灯片。")),
        ),
    ),
    Domain(
        "tax",
        ("the tax return", "报税"),
        ("tax", "报税"),
        MONEY,
        "task",
        (
            _n("The filing deadline for the tax return is July 31.", "报税截止日期是七月三十一日。",
               "filing deadline", "截止日期"),
            _n("Keep the receipts for the home office desk.", "保留家庭办公桌的收据。",
               "home office desk", "家庭办公桌"),
            _n("The accountant charges a flat fee of 250 euros.", "会计师收取二百五十欧元固定费用。",
               "flat fee", "固定费用"),
            _n("Charity donations count as deductions.", "慈善捐款可以抵扣。",
               "Charity donations", "慈善捐款"),
        ),
        (
            (("Download the salary statement.", "Sort the receipts by month.", "Book a call with the accountant."),
             ("下载工资单。", "按月份整理收据。", "约会计师通电话。")),
            (("The refund arrived in October.", "The pension payments were counted.", "Next year needs the rental income."),
             ("退税十月到账。", "养老金缴费已计入。", "明年要申报租金收入。")),
        ),
    ),
    Domain(
        "piano",
        ("piano lessons", "钢琴课"),
        ("piano", "钢琴"),
        LEARNING,
        "event",
        (
            _n("The lesson slot moved to Thursday evenings.", "上课时间改到周四晚上。",
               "lesson slot", "上课时间"),
            _n("Practise the Chopin nocturne slowly with the metronome.", "用节拍器慢练肖邦夜曲。",
               "Chopin nocturne", "肖邦夜曲"),
            _n("The piano tuner's visit is in November.", "调音师十一月上门。",
               "piano tuner's visit", "调音师", when=True),
            _n("The spring recital is in the church hall.", "春季演奏会在教堂礼堂举行。",
               "spring recital", "春季演奏会", when=True),
        ),
        (
            (("Play scales for ten minutes.", "Work on the left hand alone.", "Play the whole piece once."),
             ("先弹十分钟音阶。", "单独练左手。", "完整弹一遍曲子。")),
            (("The teacher praised the phrasing.", "The pedalling is still muddy.", "The tempo should stay steady."),
             ("老师表扬了乐句处理。", "踏板还是不干净。", "速度要保持稳定。")),
        ),
    ),
    Domain(
        "cat",
        ("the cat", "猫"),
        ("cat", "猫"),
        FAMILY,
        "event",
        (
            _n("Miso's vaccination is due at the vet in October.", "味噌十月要去兽医那里打疫苗。",
               "vaccination", "打疫苗", when=True),
            _n("The cat food changed to the salmon flavour.", "猫粮换成了三文鱼口味。",
               "salmon flavour", "三文鱼口味"),
            _n("The neighbour feeds Miso when we travel.", "我们出门时邻居帮忙喂味噌。",
               "neighbour feeds", "邻居帮忙喂"),
            _n("The scratching post goes by the balcony door.", "猫抓板放在阳台门边。",
               "scratching post", "猫抓板"),
        ),
        (
            (("Clean the litter box.", "Refill the water fountain.", "Brush Miso twice a week."),
             ("清理猫砂盆。", "给饮水机加水。", "每周给味噌梳两次毛。")),
            (("Miso weighs five kilos.", "The vet wants less dry food.", "The next check-up is in spring."),
             ("味噌体重五公斤。", "兽医建议少喂干粮。", "下次体检在春天。")),
        ),
    ),
)

# type names as instructions say them
KIND_WORDS: dict[str, Text] = {
    "note": ("notes", "笔记"),
    "task": ("tasks", "任务"),
    "event": ("events", "日程"),
    "reference": ("reference notes", "参考资料"),
    "idea": ("ideas", "想法"),
}

# tags an instruction can add that no domain uses
FRESH_TAGS: tuple[Text, ...] = (
    ("urgent", "紧急"),
    ("follow-up", "待跟进"),
    ("reviewed", "已审阅"),
    ("2025", "2025"),
    ("shared", "共享"),
    ("important", "重要"),
    ("archive-later", "稍后归档"),
    ("weekend", "周末"),
    ("checklist", "清单"),
    ("done", "已完成"),
)

PEOPLE: tuple[Text, ...] = (
    ("Maya", "李娜"),
    ("Tom", "王磊"),
    ("Priya", "张敏"),
    ("Jonas", "陈浩"),
    ("Aisha", "刘洋"),
    ("Kenji", "赵静"),
)

PLACES: tuple[Text, ...] = (
    ("Berlin", "柏林"),
    ("Lyon", "里昂"),
    ("Osaka", "大阪"),
    ("Toronto", "多伦多"),
    ("Valencia", "瓦伦西亚"),
)

# new memories an Encode instruction states, with the phrases the stored text must keep
NEW_FACTS: tuple[Note, ...] = (
    _n("The locksmith comes on Friday at 10:00.", "锁匠周五10:00上门。", "locksmith", "锁匠"),
    _n("Jonas prefers tea without sugar.", "陈浩喝茶不加糖。", "tea without sugar", "喝茶不加糖"),
    _n("The library books are due back on the 18th.", "图书馆的书18号到期要还。", "library books", "图书馆的书"),
    _n("The gym membership costs 35 euros a month.", "健身房会员每月35欧元。", "gym membership", "健身房会员"),
    _n("The bike lock code is 4-9-2.", "自行车锁密码是4-9-2。", "bike lock code", "自行车锁密码"),
    _n("The quarterly report template lives in the shared drive.", "季度报告模板在共享盘里。",
       "quarterly report template", "季度报告模板"),
    _n("Aisha is allergic to peanuts.", "刘洋对花生过敏。", "allergic to peanuts", "对花生过敏"),
    _n("The boiler service is booked for the 9th.", "锅炉保养约在9号。", "boiler service", "锅炉保养"),
    _n("Kenji's flight lands at 22:15 on Sunday.", "赵静的航班周日22:15落地。", "22:15", "22:15"),
    _n("The window cleaner comes every second Tuesday.", "擦窗工每隔一周的周二来。", "window cleaner", "擦窗工"),
    _n("The recycling bins go out on Wednesday night.", "回收垃圾桶周三晚上拿出去。", "recycling bins", "回收垃圾桶"),
    _n("The passport expires in August next year.", "护照明年八月到期。", "passport", "护照"),
)

NEW_TASKS: tuple[Note, ...] = (
    _n("Renew the passport before August.", "八月前续办护照。", "Renew the passport", "续办护照"),
    _n("Return the library books by the 18th.", "18号前还图书馆的书。", "library books", "图书馆的书"),
    _n("Book the boiler service.", "预约锅炉保养。", "boiler service", "锅炉保养"),
    _n("Cancel the old gym membership.", "取消旧的健身房会员。", "gym membership", "健身房会员"),
    _n("Order new ink for the printer.", "给打印机订新墨盒。", "ink for the printer", "墨盒"),
    _n("Send the signed lease back to the landlord.", "把签好的租约寄回给房东。", "signed lease", "签好的租约"),
)

NEW_EVENTS: tuple[Note, ...] = (
    _n("Parent-teacher meeting at the school.", "学校家长会。", "Parent-teacher meeting", "家长会"),
    _n("Dinner with Jonas and Aisha.", "和陈浩、刘洋吃晚饭。", "Dinner with Jonas", "吃晚饭"),
    _n("Flu shot at the pharmacy.", "在药店打流感疫苗。", "Flu shot", "流感疫苗"),
    _n("Call with the landlord about the lease.", "和房东通电话谈租约。", "landlord", "房东"),
    _n("Haircut at the usual place.", "在老地方理发。", "Haircut", "理发"),
    _n("Viewing of the flat on Rose Street.", "看玫瑰街的房子。", "Rose Street", "玫瑰街"),
)


def domain(name: str) -> Domain:
    for d in DOMAINS:
        if d.name == name:
            return d
    raise KeyError(name)

"""The patterns of the Chinese rule grammar (rules_zh.py): sentence markers, subjects, predicates,
statuses and the shapes of values, apart from the reading code, as patterns_en.py is for English."""

from __future__ import annotations

import re

from memql.lang.time.numbers import ZH_NUMBER_RE

_DISCOURSE = re.compile(
    r"(?:哦|噢|嗯|哎|诶|对了|另外|还有|顺便说一下|顺便说|顺便|跟你说个事|跟你说|告诉你|好消息|那个|话说|"
    r"更新一下|说个事|是这样)[，,：:！!。\s]*"
)
_CORRECTION = re.compile(
    r"(?:不对|不是的|错了|说错了|我说错了|搞错了|记错了|我记错了|更正一下|更正|纠正一下|纠正|改一下|口误|笔误|"
    r"不(?=[，,])|我是说|我的意思是|(?:准确|确切|严格)(?:地|的)?(?:说|来说|讲)|计划有变|计划变了|改主意了|变卦了|有变|更新|其实|抱歉|不好意思|等等|等一下|等下|算了|哦不|我?(?:看|听|写|记|说|搞)错[^，,。]{0,5}?了?|我?(?:写|说|记|弄|搞|输)反了?)"
    r"[，,：:。！!\s]*"
)
_QUESTION = re.compile(
    # 什么都不修, 谁也不认识, 哪儿都去过: a question word before 都/也 means "any", no question
    r"[?？]$|[吗嘛呢]$|(?:什么|哪里|哪儿|哪个|哪家|哪天|几号|几点|几月|多少|谁|怎么)(?![都也])|是不是|有没有|对不对|"
    r"能不能|要不要"
)
_CONDITIONAL = re.compile(r"^(?:如果|要是|假如|假设|万一|倘若|若是|即使)|的话")
# a race one trains for (在准备十月的半马: preparing for it is no plan)
ZH_RACE = (
    r"(?P<v>半马|全马|半程马拉松|全程马拉松|马拉松|越野赛|铁人三项|"
    r"(?:[0-9]{1,3}|[一二三四五六七八九十]{1,3})(?:公里|[Kk]))"
)
# the holidays a trip is planned for (五一打算去厦门: predicates_zh keys its place; no wish)
HOLIDAYS_ZH = (
    "五一", "十一", "国庆", "春节", "过年", "元旦", "中秋", "端午", "清明", "暑假", "寒假", "年假", "周末",
)  # fmt: skip
_HYPOTHETICAL = re.compile(
    "".join(f"(?<!{h})" for h in HOLIDAYS_ZH)
    + r"(?:打算|计划|准备)(?![^，,。]{0,6}?(?:半马|全马|马拉松|越野赛|铁人三项|公里))|"
    r"想要|想去|想搬|可能|也许|或许|考虑|希望|梦想|"
    r"说不定|大概"
)
_REPORTED = re.compile(r"说他|说她|听说|据说|告诉我")
# the one in charge of a thing of the speaker's telling its new state (医生说预产期提前到…, 房东通知下个月起
# 房租涨到…): what they say is so, unlike hearsay of others (听说, 他说他…)
TOLD_TAIL = (
    r"(?:刚刚?|又|也)?(?:打电话|打来电话|来电话|发消息|发短信|发微信)?(?:跟我|和我|给我)?"
    r"(?:说|讲|通知|通知我|告诉我)(?:了)?[，,：:]?(?![他她你我])"
)
_TOLD = re.compile(
    r"(?:医生|大夫|护士|房东|老板|领导|经理|主管|组长|班长|主任|老师|班主任|教练|公司|单位|厂里|人事|HR|客服|航空公司|"
    r"物业|中介|学校|医院|银行|4S店|店里|师傅|工人|快递员?|司机|装修公司|商家|卖家)" + TOLD_TAIL
)
_HEDGE = re.compile(r"我(?:觉得|认为|记得|猜)")
# 阿满: a prefix (阿, 小, 老) names no one alone
_NAME_CJK = r"(?:[阿小老][\u4e00-\u9fff]{1,3}?|(?![阿小老])[\u4e00-\u9fff]{1,4}?)"
_NAME_LATIN = r"(?-i:[A-Z][a-z]+)"
# what someone does, not what they are called: 我嫂子是牙医 (a dentist), 我哥是程序员
_JOB_NOUN = re.compile(
    r"(?:医生|牙医|兽医|中医|大夫|老师|教师|律师|厨师|工程师|会计|设计师|程序员|公务员|演员|护士|博士|学生|作家|画家|"
    r"歌手|校长|法官|警察|司机|工人|农民|老板|销售|经理|主管|职员|店员|服务员|记者|编辑|教授|保安|快递员|外卖员)$"
)
# a job by its noun: 老师, 程序员, 保安, 护士
_JOB = (
    r"[^，,的]{0,8}(?:师|员|生|家|工|手|长|官|医|医生|护士|经理|总监|主管|老板|教授|律师|会计|司机|厨师|记者|编辑|博士|"
    r"硕士|主任|保安|保姆|保洁|门卫|月嫂|农民|警察|领班|主厨|大厨|厨子)"
)
_NOT_NAME = re.compile(
    r"^(?:一个人|人|自己|离|俩|两个|现在|目前|已经|刚|终于|也|还|都|又|正式|就|一直|如今|最近|今年|去年|明年|的|在|是|他|她|你|它|每|让|给|被|把|叫|和|跟|从|满|"
    # 男朋友说青岛五一还冷, 我妈腿脚还行, 我老婆一坐就…: what they say or how they are, not their name
    r"说|讲|问|告诉|觉得|那边|这边|肯定|可能|应该|特别|非常|很|太|挺|真|腿|脚|身体|血压|血糖|心情|"
    r"想|要|打算|准备|会|能|去|来|一$|姓|[一二两三四五六七八九十百0-9]+岁|(?:英|日|法|德|韩|俄|西|意|葡|中|汉|粤|泰|越)(?:语|文)$|普通话|(?:春|夏|秋|冬)天|(?:今|明|昨|后|前|每|白|当)天|周末|平时|早上|晚上|中午|上午|下午|夜里|那天|这天)"
)  # 我奶奶冬天住在海南: a season or a time of day after a relative is when, not a name; 英语 a language
_ADVERB = re.compile(
    r"(?:现在|目前|已经|刚刚|刚|终于|也|还(?![款贷钱])|都|又|正式|就|一直|如今|最近|其实|真的|确实|总算|早就|这次|这回|"
    r"每天|每周|每晚|天天|平时|平常|一般|通常|经常|总是|只|主要|早餐|早饭|午饭|午餐|晚饭|晚餐|工作日|平日|"
    r"下学期|这学期|上学期|下半年|上半年|过年|春节|年前|年后|节后|暑假|寒假|"
    r"(?:今年|去年|明年)?(?:春天|夏天|秋天|冬天|春季|夏季|秋季|冬季)|"
    r"马上要|就要|将要|要|打算|准备)"  # 安娜要搬到上海: a change said for later is still the change
)
_PRED_START = (
    r"(?:住|居住|搬|定居|落户|在|入职|加入|跳槽|跳(?=去|到)|换工作|去|是|当|做|喜欢|爱|讨厌|不|有|今年|"
    r"对|的|出生|生于|结婚|订婚|离婚|单身|脱单|吃素|退休|失业|怀孕|现在|目前|已经|刚|也|还|一直|最近|"
    r"开|换|买|改|调|读|喝|吃|养|坐|转|满|升|考|教|上小学|过了|想|打算|准备|要|毕业|辞职|离职|辞了|出国|回国|"
    r"回(?!答|复|消息|信|家)|回老家|留在|分手|找到|找了|交了|生了|拿到|通过|报了|参加|被|从|退伍|退役|转业|"
    r"上(?:大|小)?(?:[夜白早晚中]班|[一二三四五六七八九]年级|幼儿园|初中|高中|大学)|上了|考上|[一二两三四五六七八九十百0-9]{1,3}(?:周)?岁|[一二两三四五六七八九十0-9]{1,2}个月(?:大)?了|[0-9.]{1,5}(?:公斤|斤|千克|kg))"
)
_TAIL = re.compile(
    r"(?:了|啦|呢|吧|呀|哦|喔|嘛|去了|来了|住|生活|定居|工作|上班|这边|那边|那里|这里|为止|啊|哈+|嘿+|嘻+|耶|咯|哟|~|～)+$"
)
_CUT = re.compile(r"(?:离|跟|和|因为|所以|但是|不过|而且|可是|感觉|觉得|骑车|开车|走路)")

_PREDICATES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p), key, kind)
    for p, key, kind in (
        (  # 我在支付组, 我调到风控组了, 现在在身份认证组: the team one is on
            r"(?:在|调到了?|调去了?|转到了?|换到了?|去了?|加入了?|进了?)(?P<v>[^，,在到]{1,8}?(?:组|小组|团队|项目组))"
            r"(?:了|啦|呢)?$",
            "team",
            "text",
        ),
        (
            r"(?:住在|居住在|定居在|定居于|落户在|住到了?|搬到了?|搬去了?|搬家到了?|搬回到?了?|搬来了?|迁到了?|移居到?|定居|落户|住(?![不得了过着惯下])|(?:新)?家(?:就|现在|已经)?在)(?P<v>.+)",
            "residence",
            "place",
        ),
        # (在苏州住不惯: not settling there)
        (
            r"在(?P<v>[^，,]+?)(?:租房子?|租了房子?)?(?:住|生活|定居|安顿|安家|落脚|扎根)(?!不|.*(?:工作|上班))",
            "residence",
            "place",
        ),
        (  # 在武汉租了自己的房子: a home rented or bought somewhere is where one lives
            # 在望京合租一个单间, 在酒仙桥租了个自己的开间
            r"在(?P<v>[^，,]{2,8}?)(?:自己|单独)?(?:租了|买了|租下了|买下了|合租了?|租)(?:一套|一间|一个|套|间|个)?"
            r"(?:自己的|新的?)?(?:房子|房|公寓|新房|[一二两三四]居室?|单间|开间|一居|主卧|次卧)",
            "residence",
            "place",
        ),
        (  # 我小姨跟我们一起住: living with the speaker, in the words said
            r"(?P<v>(?:跟|和)(?:我们|我|我家)一起住)(?:了|呢|啦)?$",
            "residence",
            "text",
        ),
        (  # 舅妈被接到城里住了, 把奶奶接到了上海: taken to live somewhere is living there
            r"(?:被)?(?:接到了?|接去了?|接来了?)(?P<v>[^，,。和跟与]{2,8}?)(?:和[^，,。]{1,6}?|跟[^，,。]{1,6}?)?(?:一起)?"
            r"(?:住|生活|养老)(?:了|啦)?$",
            "residence",
            "place",
        ),
        (  # 去北师大读研了: the school one went to study at (a city the list knows is a home: 去北京读研)
            r"去了?(?P<v>[^，,。]{2,8}?)(?:读研究生|读研|读博|读书|上学|上大学|读大学|念书)(?:了|啦)?$",
            "school_or_residence",
            "organization",
        ),
        (  # 我哥辞职回成都开火锅店了: back to a city to do something there (a place the list knows)
            r"(?:辞职|辞了职|离职|退休|毕业)?(?:飞回|搬回|回到了?|回)(?:老家)?(?P<v>[\u4e00-\u9fff]{2,4}?)"
            r"(?=开|做|当|上班|工作|发展|创业|接手|带娃|养老)[^，,。]{1,10}?(?:了|啦)?$",
            "residence_if_place",
            "place",
        ),
        (  # 回老家种茶去了: back to one's hometown, to do something there (not 回老家长沙了: 长沙)
            r"(?:辞职|辞了职|离职|退休|毕业)?(?:回到了?|回)(?P<v>老家)(?=[\u4e00-\u9fff]{1,6}?去了$)",
            "residence",
            "place",
        ),
        (  # 奶奶昨天回北京了: back to a city is where one lives again (not 回家, 回公司)
            r"(?:辞职|辞了职|离职|退休|毕业)?(?:飞回|搬回|回到了?|回)(?!家|去|来|公司|学校|单位|宿舍|办公室|医院|酒店|房间)"
            r"(?:老家)?(?P<v>[\u4e00-\u9fff]{2,4}?)(?:了|啦|去了)$",  # 辞职回老家长沙了: 长沙
            "residence",
            "place",
        ),
        (  # 被一家烤肉店挖走了: the employer that poached one
            r"被(?:一家|一个|另一家)?(?P<v>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:挖走|挖过去|聘走|请走|招走)了?$",
            "employer",
            "organization",
        ),
        (  # 星巴克把我升成店长了, 被提拔为主管: the title one was promoted to
            r"(?:[\u4e00-\u9fffA-Za-z]{1,6}?把我|被)?(?:升成|升为|升职为|升职成|提拔成|提拔为|提成|提为)了?"
            r"(?P<v>[\u4e00-\u9fff]{2,6}?)(?:了|啦)?$",
            "job_title",
            "text",
        ),
        (  # 现在在那当店长: the work at the place the part before named
            r"在(?:那|那里|那边|那儿)(?:当|做|担任)(?P<v>[\u4e00-\u9fff]{1,6}?)(?:了|呢|啦)?$",
            "job_title",
            "text",
        ),
        (  # 在家学做饭 is no work: the place is no home and the verb follows no verb of learning
            # 去星巴克当值班主管: gone to work there, as that
            r"(?:在|(?:去了?|到)(?=[^，,]{1,10}?(?:当|担任)))(?!家|那|这)(?P<v>.+?)(?<![学练想])(?:当|做|担任)"
            r"(?P<job>.+?)(?:了|呢|啦)?$",
            "employer",
            "organization",
        ),
        (  # 在上海找了份工作: found work there (a city is where one lives: rules_zh)
            r"在(?!家|那|这)(?P<v>[^，,]{2,8}?)(?:找了|找到了?|找着了)(?:一)?份?(?:新)?(?:工作|活儿?)(?:了|啦)?$",
            "employer_change",
            "organization",
        ),
        (
            # 留在…上班: stays on where one works
            r"(?:留)?在(?!家|那|这)(?P<v>[^，,]+?)(?:工作|上班|任职|实习|做事|打工|就职|兼职)",
            "employer",
            "organization",
        ),
        (  # 现在在上海一家基金公司: an employer by its word (not a hospital: one may be a patient there)
            r"在(?P<v>[^，,。]{1,16}?(?:公司|银行|券商|集团|工厂|事务所|律所|研究所|研究院|"
            r"外企|国企|央企|出版社|报社|电视台))(?:了|呢|啦)?$",
            "employer",
            "organization",
        ),
        (  # 下周一去美团报到, 下个月到字节入职: the employer one starts at
            r"(?:去|到)(?P<v>[^，,。！!去到]{2,10}?)(?:报到|报道|入职)(?:了|啦)?$",
            "employer_change",
            "organization",
        ),
        (
            # (入职第一周: how long since, no employer)
            r"(?:入职了?|加入了?|跳槽到了?|跳槽去了?|跳到了?|跳去了?|换工作到了?|换工作去了?)(?!第|[一两三四五六七八九十\d]+[天周年])(?P<v>.+?)"
            r"(?:工作|上班|任职)?(?:去|来)?(?:了|啦)?$",  # 跳到中海油去了
            "employer_change",
            "organization",
        ),
        (  # 小美去广州发展了, 到杭州工作了, 调到成都了: a city one goes to live and work in (rules_zh: a
            # place it knows, else nothing)
            r"(?:(?:去了?|到了?)(?=[\u4e00-\u9fff]{2,4}?(?:发展|工作|上班|打拼|定居|的?一家))|调到了?|调去了?|调回了?|"
            r"常驻(?:在)?|派驻(?:到|在)?|外派到了?|被派(?:到|去)了?)"
            r"(?P<v>[\u4e00-\u9fff]{2,4}?)(?:发展|工作|上班|打拼|定居|"
            # 去了深圳一家公司: a company in a city one went to
            r"的?一家[^，,。]{0,8}?(?:公司|企业|单位|工厂|银行|医院|学校)(?:上班|工作)?)?(?:了|啦)?$",
            "residence_if_place",
            "place",
        ),
        (  # 申请调回重庆了，已经批了: a transfer asked for, when the next part says it was granted
            r"申请(?:调|转)(?:到|回|去)了?(?P<v>[\u4e00-\u9fff]{2,4}?)了?$",
            "residence_if_granted",
            "place",
        ),
        (  # 阿满去杭州了，在阿里上班: a city gone to, when the next part says one works there (rules_zh)
            r"(?:去了?|到了?)(?P<v>[\u4e00-\u9fff]{2,4}?)了$",
            "residence_if_working_there",
            "place",
        ),
        (
            r"(?:换到了?|去了?|调到了?|调回到?了?|调去了?|回到了?)(?P<v>.+?)(?:工作|上班|任职)(?:了|啦)?$",
            "employer_change",
            "organization",
        ),
        (  # 被公司派到新加坡了: sent to a city is living there (rules_zh: a place); to 总部, no new employer
            r"被(?:公司|单位|领导|老板|学校|部门|总部)?(?:外派|派驻|调派|派|调)(?:到|去|往)了?"
            r"(?!总部|分公司|分部|办公室|部门|基层)(?P<v>[^，,。]{2,8}?)(?:了|啦|去了|工作|上班)?$",
            "employer_change",
            "organization",
        ),
        (  # 想当医生, 以后想成为建筑师: what one wants to become, not a job held
            r"(?:以后|将来|长大)?(?:想|希望|梦想|打算)(?:以后|将来)?(?:当|做|成为)(?:一名|一个|一位|个|名|位)?(?P<v>[^，,的]{1,8})"
            r"(?:了)?$",
            "aspiration",
            "text",
        ),
        (
            r"(?:转行|改行)?(?:是|当了?|做|成为了?|考(?:上|进)?了?(?=公务员|教师|事业编)|考上了?(?=[^，,。]{0,6}?(?:长|师|员|官|主任|经理))|升职为|升为|晋升为|升职成|升任|升了?|被提拔为|被任命为|提拔为|任命为)(?:一名|一个|一位|个|名|位)?"
            rf"(?![一二三四五六]年级|[高初大研][一二三四])(?P<v>{_JOB})(?:了)?$",  # 大一新生: a grade
            "job_title",
            "text",
        ),
        (  # 我爸去县城当保安了: gone somewhere to work as
            rf"(?:去|到|跑去|跑到)[^，,。]{{1,8}}?(?:当|做)了?(?:一名|一个|一位|个|名|位)?(?P<v>{_JOB})(?:了)?$",
            "job_title",
            "text",
        ),
        (  # 在看《三体》, 开始读《活着》, 换成《围城》了: the book one is reading
            r"(?:正在|在)?(?:看|读|开始看|开始读|改看|改读|换成了?|换了)(?P<v>《[^》]{1,20}》)(?:了|呢|啦)?",
            "reading",
            "text",
        ),
        (  # 自己开了家诊所: one's own business is what one does
            r"(?:在[^，,。]{1,6}?)?(?:自己)?(?P<v>开了?(?:一)?(?:家|个|间)[^，,。！!]{1,8}?)(?:了|呢|啦)?$",
            "job_title",
            "text",
        ),
        (  # 现在做空调维修, 在做外贸: a trade one works in
            r"(?:在)?(?:做|干|搞)(?P<v>[\u4e00-\u9fff]{0,4}?(?:维修|装修|销售|保险|外贸|生意|设计|会计|中介|电商|直播|"
            r"家政|餐饮|物流|运营|开发|编程|翻译|客服|保洁|代购|微商|财务|人事|行政|市场|采购))(?:了|呢|啦)?$",
            "job_title",
            "text",
        ),
        (  # 在老家种地, 现在跑滴滴: a living named by what one does
            r"(?:在[^，,。]{0,6}?)?(?P<v>种地|种田|务农|打零工|打工|开出租车?|跑滴滴|跑外卖|送外卖|送快递|摆摊)(?:了|呢|啦)?$",
            "job_title",
            "text",
        ),
        (  # 现在做软件测试, 转行做销售: a line of work named by its field
            r"(?:是|也是|带团队|带队|在|一直在|还在)?(?:改做|转做|改行做|转行做|做|干)(?P<v>(?:软件)?测试|销售|运营|"
            r"产品经理|产品|设计|市场|财务|人事|行政|客服|开发|编程|程序员|金融|投资|咨询|外贸|跨境电商|电商|翻译|直播|"
            r"自媒体|保险|中介|房产中介|审计|会计|"
            r"前端|后端|全栈|算法|数据分析|运维|研发|技术经理|项目经理|架构师|法务|教研)"
            r"(?:工作|这行|这一行|的)?(?:了|呢|啦)?$",
            "job_title",
            "text",
        ),
        (  # 我学吉他一年了: what one has been learning for a while
            r"(?:已经)?(?:学|练)(?P<v>[^，,。的]{1,6}?)(?:有|快|都)?(?:[一二两三四五六七八九十半0-9]+(?:年|个月|周|个星期)多?)了?$",
            "learning",
            "text",
        ),
        (  # 我老公教数学, 在教钢琴: what one teaches
            r"(?:在)?教(?![我你他她练授师室])(?P<v>[^，,。的]{1,6}?)(?:课)?(?:了|呢|啦)?$",  # (教练: who)
            "teaching",
            "text",
        ),
        (r"(?:出生于|生于|出生在|是在)(?P<v>.+?)(?:出生的?|生的)?$", "birth", "text"),
        (r"(?P<v>.+?)出生的?$", "birth", "text"),
    )
)
_FROM = re.compile(r"从[^，,]{1,12}?(?=搬|跳|换|调|转|去)")
_STATUSES: tuple[tuple[re.Pattern[str], str, str | None], ...] = (
    (
        re.compile(r"(?:已经)?(?:结婚了|结婚(?!纪念|周年|照|证|典礼|戒指|请柬|礼物)|已婚)"),
        "marital_status",
        "已婚",
    ),
    (re.compile(r"订婚了?"), "marital_status", "订婚"),
    (re.compile(r"离婚了?"), "marital_status", "离婚"),
    (re.compile(r"(?:是)?单身"), "marital_status", "单身"),
    (re.compile(r"(?:吃素|是素食者|素食主义者|吃全素)"), "diet", "素食"),
    (  # 我开始生酮了, 换成16:8轻断食了: a way of eating one keeps (value None: the words said)
        re.compile(
            r"(?:已经|现在|又|也|一直)*(?:开始|改成?|换成?|改为|在)?(?:吃|做|搞|试|尝试)?"
            r"(?P<v>生酮(?:饮食)?|(?:16[:：]8)?轻断食|间歇性?断食|低碳水?饮食|地中海饮食|蛋奶素|鱼素|纯素)(?:了|啦)?$"
        ),
        "diet",
        None,
    ),
    (re.compile(r"退休了?"), "employment_status", "退休"),
    (
        re.compile(r"(?:失业了?|待业|没工作了?|被裁(?:员)?了?|被辞退了?|被开除了?)"),
        "employment_status",
        "失业",
    ),
    (re.compile(r"怀孕了?"), "pregnancy", "怀孕"),
    (  # 在医院上夜班, 终于调成白班了: the shift in the speaker's word for it (value None: the words said)
        re.compile(
            r"(?:终于|已经|现在|又|也|还是|刚|一直)*(?:在[^，,。；;]{1,8}?)?(?:上|改上|调成|调到|换成|改成|转成|倒|值)"
            r"(?P<v>(?:大|小)?夜班|白班|早班|晚班|中班|夜勤)"
        ),
        "shift",
        None,
    ),
)
# 我爸今年五十九 (no 岁 when the number ends the clause after 今年), 过了六十大寿 (a birthday of that age)
_AGE_BARE = re.compile(
    # 过完生日六十六了; 昨天满30了
    r"(?:(?:(?:今年|过完生日|过了生日|生日过后|过完年)(?:就)?(?:已经|刚刚?)?(?:满了?)?|(?:已经|刚刚?)?满)(?P<n>"
    + ZH_NUMBER_RE
    + r")(?:了|啦)?$|(?:过了|刚过了?|办了)?(?P<n2>"
    + ZH_NUMBER_RE
    + r")(?:岁)?大寿)"
)
_AGE = re.compile(  # 五岁, 过了六岁生日
    r"(?:今年)?(?:已经|刚刚?)?(?:满了?|过了)?(?P<n>" + ZH_NUMBER_RE + r")(?:周)?岁(?:生日)?(?:了)?"
)
_ALLERGY = re.compile(r"对(?P<v>.+?)(?P<not>不|没有?)?过敏")  # (对花生不过敏: not allergic)
_PREFERENCE = re.compile(
    r"(?P<neg>不|不太|没那么|不再|不怎么)?(?P<very>特别|非常|真的|挺|蛮|超级|十分)?"
    r"(?P<verb>最喜欢|喜欢|特别喜欢|很喜欢|非常喜欢|超爱|爱|热爱|喜爱|偏爱|"
    r"讨厌|受不了|更喜欢|痛恨|反感)(?P<v>.+)"
)
_SENTIMENT = {
    "讨厌": "hate",
    "受不了": "hate",
    "痛恨": "hate",
    "反感": "dislike",
    "更喜欢": "prefer",
    "偏爱": "prefer",
    "喜欢": "like",
    "特别喜欢": "love",
    "很喜欢": "like",
    "非常喜欢": "love",
    "最喜欢": "love",
    "超爱": "love",
    "爱": "love",
    "热爱": "love",
    "喜爱": "like",
}
# the verbs that move a held time to another ("推到4月24号", "顺延到下周"): one list for every pattern
# that reads a move, longest first so 推迟到 is not read as 推 + 迟到
ZH_MOVED_TO = r"推迟到|推后到|往后推到|推到|延期到|延后到|顺延到|延长到|延到|提前到|挪到"
# an amount moved to a new value (续租的时候砍到3400了: bargained down to)
ZH_AMOUNT_TO = r"涨到|降到|减到|加到|砍到|提到|给到|谈到|压到"

_COUNT = re.compile(
    r"(?:有|养了?|养着)(?P<n>" + ZH_NUMBER_RE + r")(?:个|只|条|辆|套|位|名|台|家)(?P<x>[\u4e00-\u9fff]{1,6})"
)
_COPULA = re.compile(
    r"(?P<attr>[^，,。]{1,14}?)(?P<cop>改成了?|改去了?|换去了?|改为|改到了?|改在了?|挪在了?|换成了?|换到了?|改约到了?|改期到了?|改签到了?|变成了?|"
    r"(?:" + ZH_MOVED_TO + r")了?|"
    r"定在了?|订在了?|(?<!预)约在了?|安排在了?|提高到了?|降低到了?|增加到了?|减少到了?|(?:"
    + ZH_AMOUNT_TO
    + r")了?|调到了?|调整为|是|为|在|到|至|：|:|"
    # 雅思报了6月13号, 体检约了下周二: the day a thing is booked for
    r"(?:报|约|订|排|挂)了?(?=[0-9一二三四五六七八九十]+[月号日]|下周|下个|这周|本周|明天|后天|周[一二三四五六日天]|星期|礼拜)|"
    # 降压药一直吃的氨氯地平: what one takes, said without 是
    r"(?:一直|现在|目前|平时|每天|都)*(?:吃|服用|用|喝)的(?:是)?(?=[\u4e00-\u9fffA-Za-z])|"
    r"(?<=[\u4e00-\u9fff])\s+(?=[0-9A-Za-z+])|"  # 手机号 138…: a space before digits or Latin
    # 预产期9月12号: a month and day right after the attribute (not after a word of its own: 是6月30号)
    r"(?<=[\u4e00-\u9fff])(?<![是为在到至了就才也还又改换定约订])"
    r"(?=(?:[0-9]{1,2}|[一二三四五六七八九十]{1,2})月(?:[0-9]{1,2}|[一二三四五六七八九十]{1,3})[号日]))"
    r"(?P<v>.+)"
)
_CHANGE_COPULA = (
    "提高",
    "降低",
    "增加",
    "减少",
    "改",
    "挪在",
    "换成",
    "换到",
    "改约",
    "改期",
    "改签",
    "变成",
    "推迟",
    "延期",
    "延后",
    "延长",
    "延到",
    "顺延",
    "提前",
    "挪到",
    "涨",
    "降",
    "砍",
    "加到",
    "减到",
    "调",
)
_EXPIRES = re.compile(
    r"(?P<attr>.+?)(?:就|才|将)?(?P<verb>到期|过期|截止|截至|失效|"
    # 初稿下周五之前交给他, 论文4月10号前要交给导师: a thing due by a day
    r"(?:之前|以前|前)?(?:要|得|必须|需要)?(?:提交|交)(?=给|就|$))(?:给[\u4e00-\u9fff]{1,4})?(?:就行|就可以)?(?:了)?$"
)
_BARE = re.compile(
    r"(?:应该|其实)?(?:现在|目前|已经|最近|这个月|今年|最后|最终)*(?:给我|帮我|那就|就)?(?:又)?(?:[订选住买约定用租]的)?"
    r"(?:是|改成了?|改为|为|改回到?了?|换回到?了?|改到了?|改在了?|换到了?|换成了?|(?:"
    + ZH_AMOUNT_TO
    + r")了?|"
    r"定在了?|定到了?|改(?=下?周|星期|礼拜|明天|后天|大后天|下个?月)|"
    r"(?:" + ZH_MOVED_TO + r")了?)?"
    r"(?P<v>.+?)(?:(?:才对|啦|了)(?:\s.*)?)?$"  # (换成缬沙坦了 80毫克: what it is, not how much)
)
_NOT = re.compile(r"(?:而)?不是(?P<old>.+)$")
_TASK = re.compile(
    r"(?:(?:我们|我)(?:还|也|一定)?)?(?P<verb>得|需要|必须|应该|要|记得|别忘了|不要忘了|别忘记)(?P<task>.+)|"
    r"提醒我(?P<task2>.+)|待办[:：](?P<task3>.+)"
)
_DECISION = re.compile(
    r"(?:我们|我|大家)?(?:最后|最终)?(?:决定|定了|商定|敲定了?|选定了?|就定)(?P<what>.+)|就这么定了"
)

# a part that opens with a change verb and names no attribute (改到周五了): a change of the fact before
_CHANGE_OPENING = re.compile(
    r"(?:又)?(?:改回到?|换回到?|改到|改成|改为|改在|换到|换在|挪在|换成|"
    + ZH_MOVED_TO
    # 改周四上午: a day said right after 改
    + r"|"
    + ZH_AMOUNT_TO
    + r"|改(?=下?周|星期|礼拜|明天|后天|大后天|下个?月)|"
    r"提高到|降低到|(?:最后|最终)(?:又)?(?:定在|定到|定成|改成|改到|改回到?))"  # 又改了一次，最后定在5月23号
)
# 让我4月9号再去: the day one is told to come again is the held day's new value
_AGAIN = re.compile(  # 导师让我月底再交: someone's word before it
    r"[\u4e00-\u9fff]{0,4}?(?:让我|叫我|要我|通知我)(?P<t>[^，,。]{2,12}?)再[\u4e00-\u9fff]{1,2}?(?:一次|一趟)?(?:吧|了)?$"
)
# 兽医让它改成一天三顿: a change someone asked of the one a fact is about (the change opens after it)
_CAUSED = re.compile(
    r"[\u4e00-\u9fff]{0,4}?(?:让|叫|要|要求|建议|给)(?P<who>它|他|她|我们|[\u4e00-\u9fff]{2}(?=(?:改|换|开始)(?:吃|喝|用))|"
    r"我(?:爸爸?|妈妈?|老公|老婆|爷爷|奶奶|外公|外婆|姥姥|姥爷|儿子|女儿)?)(?="
    + _CHANGE_OPENING.pattern
    + r"|(?P<habit>(?:改|换|开始)(?:吃|喝|用|抽|练|学)))"  # 医生让我改吃缬沙坦了: a habit of the one told
)


# --- words the reading code looks up (moved from rules_zh.py) ---

_FAMILIAR = {
    "爸": "爸爸",
    "老爸": "爸爸",
    "妈": "妈妈",
    "老妈": "妈妈",
    "哥": "哥哥",
    "姐": "姐姐",
    "弟": "弟弟",
}
_FAMILIAR |= {
    "妹": "妹妹",
    "闺女": "女儿",
    "小狗": "狗",
    "小猫": "猫",
    "猫咪": "猫",
    "狗狗": "狗",
    "爸妈": "父母",
}  # 我爸 and 我爸爸: one father; 我爸妈 and 我父母: one couple
_NOMINALISED = {"喝": "饮品", "吃": "吃的", "开": "车", "读": "专业", "学": "专业", "住": "居住地"}
_PLACE_NOUN = re.compile(r"(?:公司|单位|办公室|学校|部门|家里|门店|工厂|医院|团队|小组|总部|店|厂|局|院)$")
_SPEECH = re.compile(r"(?:说|觉得|认为|问|讲|告诉我|以为|说道)$")
_SINCE = re.compile(r"(?:开始|起|以来|以后|之后)")
_GATHERING = re.compile(
    r"(?:聚餐|聚会|饭局|年会|团建|婚礼|婚宴|派对|生日会|生日宴|面试|考试|比赛|演出|活动|培训|讲座|约会|"
    r"体检|复查|会议|例会|周会|晚宴|酒席|家长会|同学会|晚饭|午饭|晚餐|午餐|早茶|寿宴|纪念日)$"
)
_DONE_THEN = re.compile(
    r"(?:的)?(?:入住|退房|到|出发|开始|结束|举行|举办|开|见|交|签|去|来)?(?:的|了)?[。！!]*"
)
_ADDRESSED = re.compile(r"[\u4e00-\u9fff](?:老师|医生|大夫|总|经理|主任|律师|教授|师傅|工)")
# who changed an amount (房东涨到5000了), or when (续租的时候砍到3400了): neither is an attribute
_ACTOR = re.compile(
    r"(?:[\u4e00-\u9fff]{1,6}?(?:的时候|时))?(?:我的|我们的)?(?:房东|老板|公司|单位|领导|物业|学校|银行|中介|他们|对方)"
    r"(?:又|也|已经)*|[\u4e00-\u9fff]{1,6}?(?:的时候|时)(?:又|也|已经)*"
)


USE_CONTACT = re.compile(  # 以后请用我的工作邮箱hexue@starlab.cn: a contact named by its shape
    r"(?:以后|今后|从现在起|从今天起)?[，,\s]*(?:请|麻烦)?(?:用|打|联系|发到|打到)(?:我的?)?(?:新的?|工作|私人)?"
    r"(?:邮箱|手机号码?|号码|电话|手机)?[：:\s]*"
    r"(?P<value>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+?\d[\d -]{5,}\d)"
)

# 我自己的还是 13501187732 不变: the speaker's own number, by a mobile number's shape
OWN_MOBILE = re.compile(
    r"(?:我自己的?|我的)(?:还是|就是|是|换成了?|改成了?)[：:\s]*"
    r"(?P<value>1[3-9]\d{9})(?!\d)"
)

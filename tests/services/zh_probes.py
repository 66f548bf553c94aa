"""Chinese conversations written apart from the bench set, as users type them (口语, 省略主语, 了/呢/吧,
量词, 数字与汉字数字): first statements of a fact in many forms, changes, corrections, third parties and
pronouns, relative dates. Each message carries the facts it must give as (subject, attribute family,
value); an attribute family matches an attribute that is it or ends in `.family`/starts `family.`.
Said by 阿梅 on Monday 2 March 2026, 09:00 UTC."""

ME = "阿梅"
MOTHER, DAUGHTER, SON = "阿梅的妈妈", "阿梅的女儿", "阿梅的儿子"

# (messages, expected facts per message); an empty set: no fact at all
CONVERSATIONS: list[tuple[str, list[tuple[str, set[tuple[str, str, object]]]]]] = [
    (
        "dentist clock correction",
        [
            ("我的牙医预约在周四下午三点。", {(ME, "appointment", "2026-03-05T15:00:00Z")}),
            ("说错了，是四点。", {(ME, "appointment", "2026-03-05T16:00:00Z")}),
        ],
    ),
    (
        "daughter transfers school",
        [
            ("我女儿在实验小学上学。", {(DAUGHTER, "school", "实验小学")}),
            ("她转到育才小学了。", {(DAUGHTER, "school", "育才小学")}),
        ],
    ),
    (
        "phone corrected",
        [
            ("我的手机号是13800001111。", {(ME, "phone", 13800001111)}),
            ("不好意思，号码是13800002222。", {(ME, "phone", 13800002222)}),
        ],
    ),
    (
        "gym switched",
        [
            ("我在一兆韦德健身。", {(ME, "gym", "一兆韦德")}),
            ("现在换到乐刻了。", {(ME, "gym", "乐刻")}),
        ],
    ),
    (
        "weight down",
        [
            ("我现在82公斤。", {(ME, "weight", "82公斤")}),
            ("这个月瘦到79公斤了！", {(ME, "weight", "79公斤")}),
        ],
    ),
    (
        "offsite moved",
        [
            ("团建定在杭州。", {(ME, "团建", "杭州")}),
            ("更新一下：团建改到苏州了。", {(ME, "团建", "苏州")}),
        ],
    ),
    (
        "rent up",
        [
            ("房租每个月4500。", {(ME, "rent", 4500)}),
            ("房东涨到5000了。", {(ME, "rent", 5000)}),
        ],
    ),
    (
        "meeting moved by day",
        [
            ("周会在周三上午十点。", {(ME, "周会", "2026-03-04T10:00:00Z")}),
            ("周会改到周四了。", {(ME, "周会", "2026-03-05")}),
        ],
    ),
    (
        "flight time corrected with 不是…是",
        [
            ("我的航班是周六早上八点的。", {(ME, "flight", "2026-03-07T08:00:00Z")}),
            ("不是八点，是九点。", {(ME, "flight", "2026-03-07T09:00:00Z")}),
        ],
    ),
    (
        "moved city",
        [
            ("我住在成都。", {(ME, "residence", "成都")}),
            ("上个月搬到重庆了。", {(ME, "residence", "重庆")}),
        ],
    ),
    (
        "job change",
        [
            ("我在美团上班。", {(ME, "employer", "美团")}),
            ("我跳槽到京东了。", {(ME, "employer", "京东")}),
        ],
    ),
    (
        "coffee habit now",
        [
            ("我每天喝美式。", {(ME, "drink", "美式")}),
            ("最近改喝拿铁了。", {(ME, "drink", "拿铁")}),
        ],
    ),
    (
        "dog name",
        [
            ("我家狗叫旺财。", {("旺财", "relation.dog_of", ME)}),
        ],
    ),
    (
        "son age",
        [
            ("我儿子今年七岁。", {(SON, "age", 7)}),
        ],
    ),
    (
        "mother moves in",
        [
            ("我妈住在哈尔滨。", {(MOTHER, "residence", "哈尔滨")}),
            ("她下个月搬来北京。", {(MOTHER, "residence", "北京")}),
        ],
    ),
    (
        "no longer vegetarian",
        [
            ("我吃素。", {(ME, "diet", "素食")}),
        ],
    ),
    (
        "wifi password corrected",
        [
            ("家里的wifi密码是abc12345。", {(ME, "wifi", "abc12345")}),
            ("哦不对，是abc54321。", {(ME, "wifi", "abc54321")}),
        ],
    ),
    (
        "birthday",
        [
            ("我的生日是5月12号。", {(ME, "birthday", "2026-05-12")}),
        ],
    ),
    (
        "haircut booking make it",
        [
            ("帮我记一下，周五下午两点理发。", {(ME, "理发", "2026-03-06T14:00:00Z")}),
            ("改成三点吧。", {(ME, "理发", "2026-03-06T15:00:00Z")}),
        ],
    ),
    (
        "car changed",
        [
            ("我开一辆丰田。", {(ME, "car", "丰田")}),
            ("上周换了辆比亚迪。", {(ME, "car", "比亚迪")}),
        ],
    ),
    (
        "salary",
        [
            ("我月薪一万二。", {(ME, "salary", 12000)}),
            ("涨到一万五了。", {(ME, "salary", 15000)}),
        ],
    ),
    (
        "team lead",
        [
            ("我们组长是老王。", {(ME, "组长", "老王")}),
            ("组长换人了，现在是小李。", {(ME, "组长", "小李")}),
        ],
    ),
    (
        "doctor appointment relative date",
        [
            ("下周二去医院复查。", {(ME, "复查", "2026-03-10")}),
            ("医院打电话来，复查提前到周一了。", {(ME, "复查", "2026-03-09")}),
        ],
    ),
    (
        "sister city via name",
        [
            ("我姐姐小红住在广州。", {("小红", "residence", "广州")}),
            ("小红搬到深圳了。", {("小红", "residence", "深圳")}),
        ],
    ),
    (
        "major",
        [
            ("我在读法学。", {(ME, "major", "法学")}),
            ("我转专业了，现在读计算机。", {(ME, "major", "计算机")}),
        ],
    ),
    (
        "password no fact questions",
        [
            ("你知道我的航班几点吗？", set()),
        ],
    ),
    (
        "hypothetical",
        [
            ("如果明年升职的话，我就搬去上海。", set()),
        ],
    ),
    (
        "hotel booking nights",
        [
            ("酒店订的是希尔顿。", {(ME, "酒店", "希尔顿")}),
            ("不对，订的是万豪。", {(ME, "酒店", "万豪")}),
        ],
    ),
    (
        "dinner place change of plan",
        [
            ("周六晚上的聚餐在海底捞。", {(ME, "聚餐", "海底捞")}),
            ("计划有变，聚餐改在外婆家了。", {(ME, "聚餐", "外婆家")}),
        ],
    ),
    (
        "piano lesson weekday",
        [
            ("我女儿的钢琴课在每周六上午。", set()),
        ],
    ),
    (
        "cat vet date",
        [
            ("我家猫下周三打疫苗。", {(ME + "的猫", "疫苗", "2026-03-11")}),
            ("记错了，是下周四。", {(ME + "的猫", "疫苗", "2026-03-12")}),
        ],
    ),
    (
        "email",
        [
            ("我的邮箱是amei@163.com。", {(ME, "email", "amei@163.com")}),
            ("邮箱换了，新的是amei2026@qq.com。", {(ME, "email", "amei2026@qq.com")}),
        ],
    ),
    (
        "husband job",
        [
            ("我老公在华为工作。", {(ME + "的老公", "employer", "华为")}),
            ("他去年离职了，现在在小米。", {(ME + "的老公", "employer", "小米")}),
        ],
    ),
    (
        "height",
        [
            ("我身高一米六五。", {(ME, "height", "一米六五")}),
        ],
    ),
    (
        "office floor",
        [
            ("我们办公室在12楼。", {(ME, "floor", "12楼")}),
            ("办公室搬到15楼了。", {(ME, "floor", "15楼")}),
        ],
    ),
    (
        "wedding date",
        [
            ("婚礼定在10月1号。", {(ME, "婚礼", "2026-10-01")}),
            ("婚礼推迟到10月5号了。", {(ME, "婚礼", "2026-10-05")}),
        ],
    ),
    (
        "kids count",
        [
            ("我有两个孩子。", {(ME, "kids", 2)}),
        ],
    ),
    (
        "allergy",
        [
            ("我对花生过敏。", {(ME, "allergy", True)}),
        ],
    ),
    (
        "commute",
        [
            ("我每天坐地铁上班。", {(ME, "commute", "坐地铁")}),
            ("现在改骑电动车上班了。", {(ME, "commute", "骑电动车")}),
        ],
    ),
    (
        "exam corrected by 不是X是Y",
        [
            ("期末考试在6月20号。", {(ME, "考试", "2026-06-20")}),
            ("是6月22号，不是20号。", {(ME, "考试", "2026-06-22")}),
        ],
    ),
    (
        "unrelated correction marker, no value",
        [
            ("我住在西安。", {(ME, "residence", "西安")}),
            ("不好意思，刚才信号不好。", set()),
        ],
    ),
    (
        "update: colon form",
        [
            ("我的工位：A区23号。", {(ME, "工位", "A区23号")}),
        ],
    ),
    (
        "deadline moved",
        [
            ("报告截止日期是3月20号。", {(ME, "deadline", "2026-03-20")}),
            ("截止日期延后到3月27号了。", {(ME, "deadline", "2026-03-27")}),
        ],
    ),
    (
        "pet name pronoun",
        [
            ("我们家猫叫咪咪，今年三岁了。", {("咪咪", "relation.cat_of", ME), ("咪咪", "age", 3)}),
        ],
    ),
    (
        "dinner 老地方 change",
        [
            ("我们周五在老地方吃饭。", {(ME, "吃饭.date", "2026-03-06"), (ME, "吃饭.location", "老地方")}),
            ("改地方了，去海底捞。", {(ME, "吃饭.location", "海底捞")}),
        ],
    ),
]

# written after the grammar was fixed against the ones above, to see whether the fixes carry over
FATHER, WIFE, HUSBAND = ME + "的爸爸", ME + "的老婆", ME + "的老公"
CONVERSATIONS_2: list[tuple[str, list[tuple[str, set[tuple[str, str, object]]]]]] = [
    (
        "haircut tomorrow corrected to half past",
        [
            ("明天上午十点剪头发。", {(ME, "剪头发", "2026-03-03T10:00:00Z")}),
            ("哦不，是十点半。", {(ME, "剪头发", "2026-03-03T10:30:00Z")}),
        ],
    ),
    (
        "father hospital pronoun",
        [
            ("我爸住在南京。", {(FATHER, "residence", "南京")}),
            ("他去年搬到扬州了。", {(FATHER, "residence", "扬州")}),
        ],
    ),
    (
        "parking spot",
        [
            ("我的车位是B2-117。", {(ME, "车位", "B2-117")}),
            ("更正一下，车位是B2-171。", {(ME, "车位", "B2-171")}),
        ],
    ),
    (
        "yoga studio",
        [
            ("我平时练瑜伽。", {(ME, "learning", "瑜伽")}),
        ],
    ),
    (
        "wife employer",
        [
            ("我老婆在建设银行上班。", {(WIFE, "employer", "建设银行")}),
            ("她跳槽去招商银行了。", {(WIFE, "employer", "招商银行")}),
        ],
    ),
    (
        "rent down",
        [
            ("房租一个月三千二。", {(ME, "rent", 3200)}),
            ("跟房东谈了，降到三千了。", {(ME, "rent", 3000)}),
        ],
    ),
    (
        "meeting time pushed",
        [
            ("项目评审会在周三下午两点。", {(ME, "评审会", "2026-03-04T14:00:00Z")}),
            ("评审会推迟到周四下午了。", {(ME, "评审会", "2026-03-05T12:00:00Z")}),
        ],
    ),
    (
        "dentist moved to next week",
        [
            ("周五下午洗牙。", {(ME, "洗牙", "2026-03-06")}),
        ],
    ),
    (
        "school pickup no fact",
        [
            ("今天好累啊。", set()),
        ],
    ),
    (
        "question no fact",
        [
            ("我妈住在哪来着？", set()),
        ],
    ),
    (
        "kid's class",
        [
            ("我儿子在读三年级。", {(SON, "grade", "三年级")}),  # a grade, not a field of study
        ],
    ),
    (
        "son school transfer",
        [
            ("我儿子在育英中学读书。", {(SON, "school", "育英中学")}),
            ("他下学期转学到十一学校。", {(SON, "school", "十一学校")}),
        ],
    ),
    (
        "bank card last digits",
        [
            ("我的工资卡尾号是3321。", {(ME, "工资卡", 3321)}),
            ("不对，尾号是3312。", {(ME, "工资卡", 3312)}),
        ],
    ),
    (
        "flight date corrected 不是…而是",
        [
            ("回老家的机票是2月28号的。", {(ME, "机票", "2027-02-28")}),
        ],
    ),
    (
        "pet food",
        [
            ("我家狗每天吃皇家狗粮。", {(ME + "的狗", "food", "皇家狗粮")}),
        ],
    ),
    (
        "favourite",
        [
            ("我最喜欢的电影是《霸王别姬》。", {(ME, "movie", "《霸王别姬》")}),
        ],
    ),
    (
        "tea switched",
        [
            ("我以前喝咖啡，现在只喝茶了。", {(ME, "drink", "茶")}),
        ],
    ),
    (
        "visit date relative",
        [
            ("我妈下周六来北京。", {(MOTHER, "北京", "2026-03-14")}),
            ("她改成下周日来了。", {(MOTHER, "北京", "2026-03-15")}),
        ],
    ),
    (
        "hotel check-in",
        [
            ("酒店是周五入住。", {(ME, "酒店", "2026-03-06")}),
        ],
    ),
    (
        "birthday party place",
        [
            ("女儿的生日会在周日下午。", {(DAUGHTER, "生日会", "2026-03-08T12:00:00Z")}),
        ],
    ),
    (
        "phone changed with 换成",
        [
            ("我手机号是13600001111。", {(ME, "phone", 13600001111)}),
            ("我把手机号换成13600002222了。", {(ME, "phone", 13600002222)}),
        ],
    ),
    (
        "salary annual",
        [
            ("我年薪三十万。", {(ME, "salary", 300000)}),
        ],
    ),
    (
        "weight in 斤 gain",
        [
            ("我体重120斤。", {(ME, "weight", "120斤")}),
            ("过年胖到128斤了。", {(ME, "weight", "128斤")}),
        ],
    ),
    (
        "time corrected to morning",
        [
            ("我约了周四下午三点看牙。", {(ME, "看牙", "2026-03-05T15:00:00Z")}),
            ("我看错了，是上午十点。", {(ME, "看牙", "2026-03-05T10:00:00Z")}),
        ],
    ),
    (
        "course day change",
        [
            ("我的英语课在每周二晚上。", set()),
        ],
    ),
    (
        "landlord unrelated chatter",
        [
            ("房东人挺好的。", set()),
        ],
    ),
    (
        "brother named, moves",
        [
            ("我弟弟小军在深圳工作。", {("小军", "residence", "深圳")}),  # a known city: where he lives
        ],
    ),
    (
        "car plate",
        [
            ("我的车牌号是京A12345。", {(ME, "车牌", "京A12345")}),
        ],
    ),
    (
        "gym to swimming",
        [
            ("我在游泳馆办了卡。", set()),
        ],
    ),
    (
        "party size change",
        [
            ("周六订了六个人的位子。", {(ME, "headcount", "六个人")}),
        ],
    ),
    (
        "appointment on day corrected with 号",
        [
            ("3月18号去办签证。", {(ME, "签证", "2026-03-18")}),
            ("搞错了，是19号。", {(ME, "签证", "2026-03-19")}),
        ],
    ),
    (
        "wifi new",
        [
            ("wifi密码改成了88888888。", {(ME, "wifi", 88888888)}),
        ],
    ),
]

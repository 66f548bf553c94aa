"""Everyday domains of the content bank: travel, health, home, family."""

from __future__ import annotations

from benchmarks.memql_set.bank import FAMILY, HEALTH, HOME, PERSONAL, Domain, note

EVERYDAY: tuple[Domain, ...] = (
    Domain(
        "lisbon",
        ("the Lisbon trip", "里斯本之行"),
        ("lisbon", "里斯本"),
        PERSONAL,
        "event",
        (
            note(
                "The flight to Lisbon leaves at 7:40 from gate B12.",
                "飞往里斯本的航班7:40从B12登机口起飞。",
                "flight to Lisbon",
                "飞往里斯本的航班",
                when=True,
            ),
            note(
                "The hotel in Alfama is booked for four nights.",
                "阿尔法玛的酒店订了四晚。",
                "hotel in Alfama",
                "阿尔法玛的酒店",
            ),
            note(
                "Ask Marta about the tram pass before the trip.",
                "出发前问玛尔塔电车通票的事。",
                "tram pass",
                "电车通票",
            ),
            note(
                "The fado concert tickets are in the email from Tuesday.",
                "法朵音乐会的门票在周二的邮件里。",
                "fado concert",
                "法朵音乐会",
                when=True,
            ),
        ),
        (
            (
                (
                    "Pack the plug adapter.",
                    "Print the museum tickets.",
                    "Exchange some euros at the airport.",
                ),
                ("带上插头转换器。", "打印博物馆门票。", "在机场换一些欧元。"),
            ),
            (
                (
                    "Day one is the castle.",
                    "Day two is Belem and the tower.",
                    "Day three is a beach day in Cascais.",
                    "The last evening is dinner in Bairro Alto.",
                ),
                ("第一天去城堡。", "第二天去贝伦塔。", "第三天去卡斯凯什海滩。", "最后一晚在上城区吃晚饭。"),
            ),
        ),
    ),
    Domain(
        "dentist",
        ("the dentist", "看牙"),
        ("dentist", "牙医"),
        HEALTH,
        "event",
        (
            note(
                "The dentist appointment is on Thursday at 15:00.",
                "周四15:00有牙医预约。",
                "dentist appointment",
                "牙医预约",
                when=True,
            ),
            note(
                "Dr Chen recommended a softer toothbrush.",
                "陈医生建议换一把软毛牙刷。",
                "softer toothbrush",
                "软毛牙刷",
            ),
            note(
                "The filling on the lower left molar needs a check in six months.",
                "左下磨牙的补牙半年后要复查。",
                "lower left molar",
                "左下磨牙",
            ),
            note(
                "The dental insurance covers two cleanings a year.",
                "牙科保险每年报销两次洗牙。",
                "two cleanings",
                "两次洗牙",
            ),
        ),
        (
            (
                ("Brush for two minutes.", "Floss every evening.", "Avoid coffee right after the cleaning."),
                ("每次刷牙两分钟。", "每晚用牙线。", "洗牙后不要马上喝咖啡。"),
            ),
            (
                (
                    "The x-ray showed no new cavities.",
                    "The gums look healthier than last year.",
                    "The next cleaning is due in spring.",
                ),
                ("X光片没有发现新的蛀牙。", "牙龈比去年健康。", "下次洗牙在春天。"),
            ),
        ),
    ),
    Domain(
        "garden",
        ("the garden", "花园"),
        ("garden", "花园"),
        HOME,
        "task",
        (
            note(
                "Plant the tulip bulbs before the first frost.",
                "第一次霜冻前种下郁金香球茎。",
                "tulip bulbs",
                "郁金香球茎",
            ),
            note("The apple tree needs pruning in February.", "苹果树二月需要修剪。", "apple tree", "苹果树"),
            note(
                "Buy a longer hose for the back beds.",
                "给后面的花坛买一根更长的水管。",
                "longer hose",
                "更长的水管",
            ),
            note(
                "The tomatoes did best against the south fence.",
                "番茄靠南边篱笆长得最好。",
                "south fence",
                "南边篱笆",
            ),
        ),
        (
            (
                ("Rake the leaves.", "Cover the roses.", "Drain the rain barrel."),
                ("耙落叶。", "给玫瑰盖上防寒布。", "把雨水桶排空。"),
            ),
            (
                (
                    "Basil needs sun all day.",
                    "Mint spreads fast and wants a pot.",
                    "Rosemary survives the winter outside.",
                ),
                ("罗勒需要全天日照。", "薄荷长得快要种在盆里。", "迷迭香能在室外过冬。"),
            ),
        ),
    ),
    Domain(
        "car",
        ("the car", "汽车"),
        ("car", "汽车"),
        HOME,
        "task",
        (
            note(
                "The winter tyres are stored at the garage on Elm Street.",
                "冬季轮胎存放在榆树街的修车行。",
                "winter tyres",
                "冬季轮胎",
            ),
            note(
                "The next oil change is due at 60,000 km.", "下次换机油在六万公里。", "oil change", "换机油"
            ),
            note(
                "The parking permit renews every January.",
                "停车许可每年一月续期。",
                "parking permit",
                "停车许可",
            ),
            note(
                "The spare key is in the blue drawer.", "备用车钥匙在蓝色抽屉里。", "spare key", "备用车钥匙"
            ),
        ),
        (
            (
                ("Check the tyre pressure.", "Top up the washer fluid.", "Clean the headlights."),
                ("检查胎压。", "加满玻璃水。", "清洁大灯。"),
            ),
            (
                (
                    "The inspection passed in March.",
                    "The brake pads were replaced.",
                    "The wipers need changing soon.",
                ),
                ("三月年检通过了。", "刹车片已经换过了。", "雨刮器快要换了。"),
            ),
        ),
    ),
    Domain(
        "recipes",
        ("recipes", "菜谱"),
        ("recipe", "菜谱"),
        HOME,
        "reference",
        (
            note(
                "The lentil soup needs cumin and a squeeze of lemon.",
                "扁豆汤要放孜然和一点柠檬汁。",
                "lentil soup",
                "扁豆汤",
            ),
            note(
                "Grandma's dumpling dough rests for thirty minutes.",
                "奶奶的饺子面要醒三十分钟。",
                "dumpling dough",
                "饺子面",
            ),
            note(
                "The banana bread bakes at 175 degrees for an hour.",
                "香蕉面包175度烤一小时。",
                "banana bread",
                "香蕉面包",
            ),
            note(
                "Toast the sesame seeds before adding them to the noodles.",
                "芝麻先炒香再拌进凉面。",
                "sesame seeds",
                "芝麻",
            ),
        ),
        (
            (
                (
                    "Soak the chickpeas overnight.",
                    "Boil them for an hour.",
                    "Blend them with tahini and garlic.",
                ),
                ("鹰嘴豆泡一夜。", "煮一个小时。", "加芝麻酱和大蒜打成泥。"),
            ),
            (
                (
                    "Brown the onions slowly.",
                    "Add the rice and stir.",
                    "Pour in the stock a ladle at a time.",
                ),
                ("洋葱慢慢炒到焦黄。", "加入米翻炒。", "一勺一勺加高汤。"),
            ),
        ),
    ),
    Domain(
        "renovation",
        ("the kitchen renovation", "厨房装修"),
        ("renovation", "装修"),
        HOME,
        "task",
        (
            note(
                "The plumber comes on Monday to move the sink.",
                "水管工周一来移水槽。",
                "move the sink",
                "移水槽",
            ),
            note(
                "We chose the oak worktop over the granite one.",
                "我们选了橡木台面而不是花岗岩台面。",
                "oak worktop",
                "橡木台面",
            ),
            note(
                "The electrician quoted 1,200 euros for new sockets.",
                "电工给新插座报价一千二百欧元。",
                "new sockets",
                "新插座",
            ),
            note("The tiles arrive three weeks late.", "瓷砖晚到三周。", "tiles arrive", "瓷砖晚到"),
        ),
        (
            (
                ("Empty the cupboards.", "Cover the floor.", "Turn off the water at the main valve."),
                ("清空橱柜。", "把地板盖好。", "关掉总水阀。"),
            ),
            (
                (
                    "The old cabinets go to the recycling yard.",
                    "The fridge stays in the hallway for a week.",
                    "The painter starts after the tiles.",
                ),
                ("旧橱柜送去回收站。", "冰箱在走廊放一周。", "贴完瓷砖后油漆工开工。"),
            ),
        ),
    ),
    Domain(
        "running",
        ("running", "跑步"),
        ("running", "跑步"),
        HEALTH,
        "note",
        (
            note(
                "The half marathon starts at 9:00 at the harbour.",
                "半程马拉松九点在港口起跑。",
                "half marathon",
                "半程马拉松",
                when=True,
            ),
            note(
                "New trail shoes after 600 kilometres.",
                "跑满六百公里换新越野跑鞋。",
                "trail shoes",
                "越野跑鞋",
            ),
            note(
                "Interval training on Tuesdays with the club.",
                "周二和跑团一起做间歇训练。",
                "Interval training",
                "间歇训练",
            ),
            note("Stretch the left calf after long runs.", "长距离跑后拉伸左小腿。", "left calf", "左小腿"),
        ),
        (
            (
                ("Warm up for ten minutes.", "Run six intervals.", "Cool down with an easy jog."),
                ("热身十分钟。", "跑六组间歇。", "慢跑放松。"),
            ),
            (
                ("Week one is three short runs.", "Week two adds a long run.", "Week three is a rest week."),
                ("第一周三次短跑。", "第二周加一次长跑。", "第三周休息。"),
            ),
        ),
    ),
    Domain(
        "birthday",
        ("Mum's birthday", "妈妈的生日"),
        ("birthday", "生日"),
        FAMILY,
        "event",
        (
            note(
                "Mum's birthday dinner is at the Italian place on Saturday.",
                "妈妈的生日晚餐周六在意大利餐厅。",
                "birthday dinner",
                "生日晚餐",
                when=True,
            ),
            note("Order the lemon cake two days ahead.", "提前两天订柠檬蛋糕。", "lemon cake", "柠檬蛋糕"),
            note(
                "She wants a new gardening book this year.",
                "她今年想要一本新的园艺书。",
                "gardening book",
                "园艺书",
            ),
            note("Uncle Leo picks up the flowers.", "利奥舅舅去取鲜花。", "picks up the flowers", "去取鲜花"),
        ),
        (
            (
                ("Book the table.", "Send the invitations.", "Collect money for the present."),
                ("订位。", "发邀请。", "凑钱买礼物。"),
            ),
            (
                ("The cake comes at six.", "Guests arrive at seven.", "Speeches start after dessert."),
                ("蛋糕六点送到。", "客人七点到。", "甜点后开始致辞。"),
            ),
        ),
    ),
    Domain(
        "network",
        ("the home network", "家里的网络"),
        ("wifi", "网络"),
        HOME,
        "reference",
        (
            note(
                "The guest wifi is called Harbour-Guest.",
                "访客无线网叫Harbour-Guest。",
                "guest wifi",
                "访客无线网",
            ),
            note(
                "The router restarts itself every Sunday at 4:00.",
                "路由器每周日4:00自动重启。",
                "router restarts",
                "路由器每周日",
            ),
            note(
                "The fibre contract can be cancelled after June.",
                "光纤合约六月后可以取消。",
                "fibre contract",
                "光纤合约",
            ),
            note(
                "The mesh node in the attic drops the signal.",
                "阁楼的网状节点信号不稳。",
                "mesh node",
                "网状节点",
            ),
        ),
        (
            (
                ("Update the router firmware.", "Change the admin password.", "Turn off remote management."),
                ("更新路由器固件。", "修改管理员密码。", "关闭远程管理。"),
            ),
            (
                (
                    "The printer has a fixed address.",
                    "The cameras use their own network.",
                    "The TV stays on cable.",
                ),
                ("打印机用固定地址。", "摄像头走单独网络。", "电视继续用有线。"),
            ),
        ),
    ),
    Domain(
        "cat",
        ("the cat", "猫"),
        ("cat", "猫"),
        FAMILY,
        "event",
        (
            note(
                "Miso's vaccination is due at the vet in October.",
                "味噌十月要去兽医那里打疫苗。",
                "vaccination",
                "打疫苗",
                when=True,
            ),
            note(
                "The cat food changed to the salmon flavour.",
                "猫粮换成了三文鱼口味。",
                "salmon flavour",
                "三文鱼口味",
            ),
            note(
                "The neighbour feeds Miso when we travel.",
                "我们出门时邻居帮忙喂味噌。",
                "neighbour feeds",
                "邻居帮忙喂",
            ),
            note(
                "The scratching post goes by the balcony door.",
                "猫抓板放在阳台门边。",
                "scratching post",
                "猫抓板",
            ),
        ),
        (
            (
                ("Clean the litter box.", "Refill the water fountain.", "Brush Miso twice a week."),
                ("清理猫砂盆。", "给饮水机加水。", "每周给味噌梳两次毛。"),
            ),
            (
                (
                    "Miso weighs five kilos.",
                    "The vet wants less dry food.",
                    "The next check-up is in spring.",
                ),
                ("味噌体重五公斤。", "兽医建议少喂干粮。", "下次体检在春天。"),
            ),
        ),
    ),
)
